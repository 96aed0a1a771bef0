import pkg from '../package.json';

/**
 * The version reported at /.well-known/version. Current clients refuse to work unless it is
 * >= 12.0.0 and < 13.0.0, so Trove reports the interface version it implements in that
 * range; Trove's own release is package.json's version.
 */
export const INTERFACE_VERSION = '12.3.0';
export const TROVE_VERSION: string = pkg.version;

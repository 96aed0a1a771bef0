import { createHash } from 'node:crypto';

/**
 * A stable UUID (v4 layout) derived from a namespace and a key: the same record gets the same id
 * everywhere and every time (a provider's model, a client model, an anchor's point).
 */
export function derivedId(namespace: string, key: string): string {
  const h = createHash('sha256').update(`${namespace}:${key}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

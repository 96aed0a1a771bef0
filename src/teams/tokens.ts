import { createHash, randomBytes } from 'node:crypto';

/** The prefix of Trove's user tokens and session ids: a secret scanner can recognise them. */
export const TOKEN_PREFIX = 'trove_';

/** A fresh secret: 32 random bytes, base64url, prefixed. */
export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * What is stored of a token: its SHA-256 digest (hex). A token is 256 random bits, so a fast
 * digest is as safe as a slow password hash here, and a lookup per request stays cheap.
 */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A user's or space's id: 16 hex digits (also part of a PostgreSQL schema name). */
export function newId(): string {
  return randomBytes(8).toString('hex');
}

import { createHash } from 'node:crypto';

/** A stable UUID (v4 layout) for a provider's model: the same model gets the same id everywhere. */
export function modelId(provider: string, unique: string): string {
  const h = createHash('sha256').update(`${provider}:${unique}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

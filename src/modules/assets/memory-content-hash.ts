import { createHash } from 'node:crypto';

/**
 * What makes two memories the same: the same text (ends trimmed) saved by the same client (none
 * is a client of its own) and, when the client said what time it is about, about the same time
 * (the same words said on two days are two memories). Stored as `workstream_summaries.content_hash`,
 * unique among live memories: saving one again answers the one kept.
 */
export function memoryContentHash(text: string, source: string | null | undefined, about?: string | null): string {
  const key: string[] = [source?.trim() ?? '', String(text ?? '').trim()];
  if (about) key.push(about);
  return createHash('sha256').update(JSON.stringify(key)).digest('hex');
}

import { createHash } from 'node:crypto';

/**
 * What makes two memories the same: the same text (ends trimmed) saved by the same client (none
 * is a client of its own). Stored as `workstream_summaries.content_hash`, unique among live
 * memories: saving one again answers the one kept.
 */
export function memoryContentHash(text: string, source: string | null | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify([source?.trim() ?? '', String(text ?? '').trim()]))
    .digest('hex');
}

/** `{"value": "2024-01-01T00:00:00.000Z", "readable": "Jan 1, 2024, 12:00 AM UTC"}` */
export class GroupedTimestamp {
  /** ISO-8601 with Z. */
  value: string;
  /** Human text clients display. */
  readable: string;
}

export class ByteDescriptor {
  value: number;
  readable: string;
}

export class Identified {
  id: string;
}

export class Score {
  manual: number;
  automatic: number;
}

const readableFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

let lastMs = 0;
/** `lastMs`'s second as ISO text up to the dot ("2026-01-01T00:00:00."): Date formatting runs once a second. */
let secondMs = -1;
let secondText = '';

/**
 * Timestamps are stored as ISO-8601 strings with `Z` (fixed width, so they sort as text).
 * Strictly increasing within a process, so records made in the same millisecond (several
 * annotations of one request, say) still sort in the order they were made.
 */
export function nowIso(): string {
  const now = Date.now();
  lastMs = now > lastMs ? now : lastMs + 1;
  const ms = lastMs % 1000;
  if (lastMs - ms !== secondMs) {
    secondMs = lastMs - ms;
    secondText = new Date(secondMs).toISOString().slice(0, 20);
  }
  return `${secondText}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

/**
 * `readable` shows the minute (in UTC), and Intl formatting costs microseconds per call on
 * every timestamp of every response: it is remembered per minute (a UTC ISO string's first 16
 * characters), for the most recent few thousand minutes.
 */
const readableByMinute = new Map<string, string>();
const MINUTES_KEPT = 4096;

export function groupedTimestamp(iso: string): GroupedTimestamp {
  const minute = iso.length >= 20 && iso.endsWith('Z') ? iso.slice(0, 16) : null;
  let readable = minute === null ? undefined : readableByMinute.get(minute);
  if (readable === undefined) {
    readable = readableFormat.format(new Date(iso));
    if (minute !== null) {
      if (readableByMinute.size >= MINUTES_KEPT) readableByMinute.clear();
      readableByMinute.set(minute, readable);
    }
  }
  return { value: iso, readable };
}

const UNITS = ['B', 'KB', 'MB', 'GB'];

/** `{"value": 2048, "readable": "2 KB"}` */
export function byteDescriptor(value: number): ByteDescriptor {
  let size = value;
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  const shown = unit === 0 ? String(size) : size.toFixed(size < 10 ? 1 : 0).replace(/\.0$/, '');
  return { value, readable: `${shown} ${UNITS[unit]}` };
}

/** A flattened collection: its items and their `indices` (id -> position), which the official clients read. */
export function indexed<T extends { id: string }>(iterable: T[]): { iterable: T[]; indices: Record<string, number> } {
  const indices: Record<string, number> = {};
  iterable.forEach((item, i) => (indices[item.id] = i));
  return { iterable, indices };
}

import { Database } from '../../common/database/database.service';
import { Keyset } from '../../common/database/keyset';
import { OutboxReader } from '../../common/events/outbox.reader';
import { StreamView } from './stream-topics';

/** How long a first frame may be handed to newly opened sockets after it was read. */
const SNAPSHOT_REUSE_MS = 1000;

/** The first page of a view's first frame with the outbox head it reflects, read in one consistent snapshot. */
export interface FirstPage {
  head: number;
  /** The whole first frame when the page holds every item (`next` null), else the page's items. */
  body: string;
  items: string[];
  next: Keyset | null;
}

interface SnapshotEntry {
  /** When the read finished (null while in flight) and the head it reflects. */
  at: number | null;
  head: number;
  result: Promise<FirstPage>;
}

/**
 * The first frames of the stream views, shared by the sockets that open together. When a view's
 * first page is its whole first frame (most stores), sockets opening together share one read (a
 * reconnect storm of a thousand clients costs one query, not a thousand), and a result is reused
 * for SNAPSHOT_REUSE_MS while no event has been handed out since. Any such pair (frame, head) is
 * correct for any socket: it then reads the outbox from that head on. A larger first frame is
 * walked by each socket at its own pace (StreamHub's `sendInParts`).
 */
export class FirstFrames {
  /** The latest first frame of each view; `at` is null while it is being read. */
  private readonly snapshots = new Map<StreamView, SnapshotEntry>();

  constructor(
    private readonly db: Database,
    private readonly outbox: OutboxReader,
  ) {}

  /** `view`'s first page and the outbox head it reflects; `position`: the highest event handed out so far. */
  read(view: StreamView, position: number): Promise<FirstPage> {
    const cached = this.snapshots.get(view);
    if (cached && (cached.at === null || (Date.now() - cached.at < SNAPSHOT_REUSE_MS && cached.head === position)))
      return cached.result;
    const entry: SnapshotEntry = {
      at: null,
      head: -1,
      result: Promise.resolve({ head: 0, body: '', items: [], next: null }),
    };
    entry.result = this.db
      .readConsistent(async (em) => {
        const head = await this.outbox.head(em);
        const { items, next } = await view.page(em, null);
        return { head, items, next, body: next ? '' : `{"iterable":[${items.join(',')}]}` };
      })
      .then(
        (result) => {
          entry.at = Date.now();
          entry.head = result.head;
          // Not kept longer than it may be reused (a first frame with content can be large), nor
          // at all when it is only the first page of a larger one.
          const forget = () => this.snapshots.get(view) === entry && this.snapshots.delete(view);
          if (result.next) forget();
          else setTimeout(forget, SNAPSHOT_REUSE_MS).unref();
          return result;
        },
        (error) => {
          if (this.snapshots.get(view) === entry) this.snapshots.delete(view);
          throw error;
        },
      );
    this.snapshots.set(view, entry);
    return entry.result;
  }
}

import { Logger } from '@nestjs/common';
import { SqliteConnection, openSqlite } from './sqlite-driver';

/** How often the WAL is copied back into the database file after a COMMIT. */
const CHECKPOINT_EVERY_MS = 250;
/**
 * Ticks after which a checkpoint runs even though no COMMIT was noted (a write through another
 * path than the group commit, such as a migration or a maintenance statement): every 5 s, and,
 * while those checkpoints find the WAL as the last one left it, half as often each time, down
 * to once a minute.
 */
const UNNOTED_EVERY_TICKS = 20;
const UNNOTED_AT_MOST_TICKS = 240;
/**
 * WAL pages after which the writing connection checkpoints by itself, inside a COMMIT: a
 * backstop for when the background checkpoints fall behind (SQLite's default is 1,000).
 */
export const WRITER_CHECKPOINT_PAGES = 10_000;

/**
 * Copies the WAL back into the database file from a connection of its own (a PASSIVE
 * checkpoint, which never blocks the writer or the readers), every CHECKPOINT_EVERY_MS.
 *
 * SQLite otherwise checkpoints on the writing connection, at the end of the COMMIT that takes
 * the WAL past 1,000 pages. With the search index a create writes ~21 pages, so that came every
 * second or third batch and added its page writes and the database file's fsync to that
 * COMMIT: ~11 ms per batch on average, about a fifth of a batch under a create load, while
 * every client of the batch waited for it.
 *
 * A tick with nothing committed since the last checkpoint does nothing but count: a deployment
 * for a team holds a store per user open, and idle stores each asking SQLite for a checkpoint
 * four times a second kept libuv's four threads busy for the stores in use (100 open stores,
 * 400 PRAGMAs a second).
 */
export class WalCheckpointer {
  private readonly logger = new Logger('WalCheckpointer');
  private timer: NodeJS.Timeout | null = null;
  /** The checkpoint in flight, if any. */
  private running: Promise<void> | null = null;
  /** A COMMIT happened since the last checkpoint began. */
  private dirty = false;
  /** Ticks since the last checkpoint began. */
  private idleTicks = 0;
  /** Ticks between checkpoints while no COMMIT is noted. */
  private unnotedEvery = UNNOTED_EVERY_TICKS;
  /** The WAL's frames as the last checkpoint found them (`log` of wal_checkpoint). */
  private lastLog = -1;

  private constructor(private readonly connection: SqliteConnection) {}

  /** Opens its connection (node-sqlite3's public API, through sqlite-driver.ts) to the database file at `path`. */
  static async open(path: string): Promise<WalCheckpointer> {
    const checkpointer = new WalCheckpointer(await openSqlite(path));
    checkpointer.timer = setInterval(() => checkpointer.tick(), CHECKPOINT_EVERY_MS);
    checkpointer.timer.unref();
    return checkpointer;
  }

  /** The writer committed: the next tick checkpoints. */
  noteCommit(): void {
    this.dirty = true;
    this.unnotedEvery = UNNOTED_EVERY_TICKS;
  }

  private tick(): void {
    if (this.running) return;
    if (!this.dirty && ++this.idleTicks < this.unnotedEvery) return;
    const unnoted = !this.dirty;
    this.dirty = false;
    this.idleTicks = 0;
    this.running = new Promise((resolve) =>
      this.connection.all('PRAGMA wal_checkpoint(PASSIVE)', (error, rows) => {
        if (error)
          this.logger.warn(
            `checkpoint failed (the writer checkpoints past ${WRITER_CHECKPOINT_PAGES} pages): ${error.message}`,
          );
        const log = error ? -1 : Number((rows[0] as { log?: number } | undefined)?.log ?? -1);
        if (unnoted && log === this.lastLog) this.unnotedEvery = Math.min(UNNOTED_AT_MOST_TICKS, this.unnotedEvery * 2);
        else if (unnoted) this.unnotedEvery = UNNOTED_EVERY_TICKS;
        this.lastLog = log;
        this.running = null;
        resolve();
      }),
    );
  }

  /** Stops the timer, lets a checkpoint in flight finish, closes the connection. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await new Promise<void>((resolve) => this.connection.close(() => resolve()));
  }
}

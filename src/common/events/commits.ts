import { Injectable } from '@nestjs/common';

/**
 * Says that changes with outbox entries were committed on this instance, once per turn of the
 * event loop however many units of work committed in it (a SQLite write batch commits up to 64
 * at once). The stream wake-ups listen: this is the one path from a commit to the local
 * tailer and to the other instances.
 */
@Injectable()
export class Commits {
  private readonly listeners: Array<() => void> = [];
  private scheduled = false;

  onCommit(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Called by UnitOfWork after a commit that appended to the outbox. */
  committed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const listener of this.listeners) listener();
    });
  }
}

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../common/config/app-config';
import { ControlStore } from './control-store';
import { storeSchema } from './store-apps';

/** How long a store's measured size is trusted (the quota is checked against it). */
const SIZE_TTL_MS = 10_000;

/** The storage quota of a user's own store (TROVE_USER_QUOTA_MB), against its size on disk. */
export class StoreQuota {
  private readonly sizes = new Map<string, { bytes: number; at: number }>();

  constructor(
    private readonly config: AppConfig,
    private readonly control: ControlStore,
  ) {}

  /** Why a write to a user's own store is refused (over TROVE_USER_QUOTA_MB), or null. */
  async refusal(store: string): Promise<string | null> {
    if (this.config.userQuotaMb <= 0) return null;
    const bytes = await this.bytes(store);
    if (bytes <= this.config.userQuotaMb * 1024 * 1024) return null;
    return `your store is full: ${(bytes / 1048576).toFixed(1)} MB of a ${this.config.userQuotaMb} MB quota; delete something first`;
  }

  /** The bytes a user's store takes on disk (SQLite: its files; PostgreSQL: its schema), measured at most every 10 s. */
  private async bytes(store: string): Promise<number> {
    const known = this.sizes.get(store);
    if (known && Date.now() - known.at < SIZE_TTL_MS) return known.bytes;
    let bytes = 0;
    if (this.config.dialect === 'sqlite') {
      const dir = join(this.config.dataDir, store);
      // The database file: what the WAL holds moves into it at the next checkpoint (one runs every few seconds).
      try {
        bytes = statSync(join(dir, 'trove.db')).size;
      } catch {
        // not made yet
      }
    } else {
      bytes = await this.control.schemaBytes(store === '' ? 'public' : storeSchema(store));
    }
    this.sizes.set(store, { bytes, at: Date.now() });
    return bytes;
  }
}

/** What Settings shows of this Trove: its version, where its data lives, and how to reach its API. */
export class TroveAboutWire {
  version: string;
  /** `sqlite` or `postgres`. */
  storage: string;
  /** The SQLite file (null on PostgreSQL). */
  databasePath: string | null;
  /** The SQLite file's size with its WAL, in bytes (null on PostgreSQL). */
  databaseBytes: number | null;
  /** The data directory (models, exports). */
  dataDir: string;
  /** Trove's own port (an applet's page is served on another one). */
  port: number;
  /** Whether API keys are required (TROVE_API_KEYS). */
  apiKeysRequired: boolean;
}

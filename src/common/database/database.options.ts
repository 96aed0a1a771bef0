import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { sqliteDriver } from './sqlite-driver';
import { WRITER_CHECKPOINT_PAGES } from './wal-checkpointer';

const root = join(__dirname, '..', '..');

/**
 * The one description of the database, used by Nest (TypeOrmModule) and by the
 * TypeORM CLI (ormconfig.ts). Schema always comes from the migrations of the dialect.
 */
export function dataSourceOptions(config: AppConfig): DataSourceOptions {
  const common = {
    entities: [join(root, 'modules', '**', '*.entity.{ts,js}'), join(root, 'common', '**', '*.entity.{ts,js}')],
    migrationsRun: true,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: ['error' as const],
  };
  if (config.dialect === 'postgres') {
    return {
      ...common,
      // Several instances may boot at once: Database runs the migrations under an advisory lock.
      migrationsRun: false,
      type: 'postgres',
      url: config.databaseUrl!,
      migrations: [join(root, 'migrations', 'postgres', '*.{ts,js}')],
      // A team store (docs/TEAMS.md): its own schema, named first on every connection's search_path
      // (the raw SQL names tables unqualified; every table of the migrations is made in it, so a
      // name never falls through to public, which stays on the path for pg_trgm's operators),
      // and a small pool: many stores share the server.
      ...(config.databaseSchema
        ? {
            schema: config.databaseSchema,
            extra: {
              max: 3,
              idleTimeoutMillis: 10_000,
              connectionTimeoutMillis: 5000,
              options: `-c search_path="${config.databaseSchema}",public`,
            },
          }
        : { extra: { max: 10, connectionTimeoutMillis: 5000 } }),
    };
  }
  return {
    ...common,
    type: 'sqlite',
    database: config.sqlitePath,
    migrations: [join(root, 'migrations', 'sqlite', '*.{ts,js}')],
    // node-sqlite3 with its verbose tracing (which TypeORM switches on) kept off: see sqlite-driver.ts.
    driver: sqliteDriver,
    enableWAL: true,
    busyTimeout: 5000,
    busyErrorRetry: 2000,
  };
}

/**
 * Durability of the writing SQLite connection, applied by Database on start; it leaves WAL
 * checkpoints to WalCheckpointer unless the WAL grows past WRITER_CHECKPOINT_PAGES. TypeORM itself
 * sets journal_mode=WAL (enableWAL), busy_timeout and foreign_keys=ON when it connects.
 */
export const SQLITE_PRAGMAS = [
  'PRAGMA synchronous = FULL',
  'PRAGMA foreign_keys = ON',
  `PRAGMA wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`,
];

/** The second connection, which serves reads: it refuses to write. */
export const SQLITE_READER_PRAGMAS = ['PRAGMA query_only = ON'];

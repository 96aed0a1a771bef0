import 'reflect-metadata';
import { DynamicModule, INestApplicationContext, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule, QueryBus } from '@nestjs/cqrs';
import { mkdirSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from '../../../src/common/config/app-config';
import { AppHost } from '../../../src/common/config/app-host';
import { ConfigModule } from '../../../src/common/config/config.module';
import { DatabaseModule } from '../../../src/common/database/database.module';
import { AssetsModule } from '../../../src/modules/assets/assets.module';
import { ConversationsModule } from '../../../src/modules/conversations/conversations.module';
import { IntelligenceModule } from '../../../src/modules/intelligence/intelligence.module';
import { ModelsModule } from '../../../src/modules/models/models.module';
import { SearchModule } from '../../../src/modules/search/search.module';
import { SystemModule } from '../../../src/modules/system/system.module';
import { ThrowawayStore, throwawayStore } from '../../support/databases';
import { textSeed } from '../../e2e/support/seeds';
import { SeedDto } from '../../../src/modules/assets/dto/seed.dto';
import { validateInput } from '../../../src/common/validation/input';

/**
 * The modules whose use cases the integration specs drive, as the app imports them (their
 * projections, the search index among them, register themselves as they do in the app); the
 * HTTP-only modules (applets, operations, streams' sockets, MCP, qgpt) are left out.
 */
const MODULES: Array<Type | DynamicModule> = [
  IntelligenceModule,
  ModelsModule,
  SearchModule,
  SystemModule,
  AssetsModule,
  ConversationsModule,
];

/** The root module of a test store's context: what AppModule and the CLI's context put first, then MODULES. */
@Module({})
class TestStoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: TestStoreModule,
      imports: [ConfigModule.forRoot(config, new AppHost(null)), DatabaseModule, CqrsModule.forRoot(), ...MODULES],
    };
  }
}

export interface TestStore {
  /** The current application context: a fresh one after `reopen`. */
  readonly app: INestApplicationContext;
  readonly config: AppConfig;
  readonly commands: CommandBus;
  readonly queries: QueryBus;
  /** A provider of the current context (a reader, a writer, a unit of work). */
  get<T>(type: Type<T>): T;
  /** Runs SQL against the store's own database (to see what a use case wrote). */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  /** `table=rows ...` for the given tables: a refused use case must leave it unchanged. */
  counts(tables: string[]): Promise<string>;
  /** Closes the context the normal way and opens a new one on the same store (SQLite directory or PostgreSQL database). */
  reopen(): Promise<void>;
  /** Closes the context and removes the store. */
  close(): Promise<void>;
}

/** The configuration of a store's context: the environment's, quiet, without the Pieces port file, on `store`. */
function storeConfig(store: ThrowawayStore, env: Record<string, string>): AppConfig {
  return loadConfig({ ...process.env, TROVE_LOG_LEVEL: 'warn', TROVE_PORT_FILE: 'off', ...env, ...store.env });
}

async function openContext(config: AppConfig): Promise<INestApplicationContext> {
  if (config.dialect === 'sqlite') mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // The same database setup as the app's (migrations, WAL, the group commit), without an HTTP server.
  return NestFactory.createApplicationContext(TestStoreModule.forRoot(config), {
    logger: ['error', 'warn'],
    abortOnError: false,
  });
}

/**
 * Opens the use-case modules in a Nest application context (no HTTP) on a throwaway store: a
 * temporary SQLite directory, or a new PostgreSQL database when TEST_DATABASE_URL is set
 * (`npm run test:pg`). The migrations run as they do when the app boots.
 */
export async function openTestStore(env: Record<string, string> = {}): Promise<TestStore> {
  const store = await throwawayStore('trove-integration-');
  const config = storeConfig(store, env);
  let app: INestApplicationContext | null = await openContext(config);
  const current = (): INestApplicationContext => {
    if (!app) throw new Error('the test store is closed');
    return app;
  };
  return {
    get app() {
      return current();
    },
    config,
    get commands() {
      return current().get(CommandBus);
    },
    get queries() {
      return current().get(QueryBus);
    },
    get: (type) => current().get(type),
    sql: (query, params) => current().get(DataSource).query(query, params),
    counts: async (tables) => {
      const rows = await Promise.all(
        tables.map((t) => current().get(DataSource).query<Array<{ n: number }>>(`SELECT COUNT(*) AS n FROM ${t}`)),
      );
      return rows.map((r, i) => `${tables[i]}=${r[0].n}`).join(' ');
    },
    reopen: async () => {
      const closing = current();
      app = null;
      await closing.close();
      app = await openContext(config);
    },
    close: async () => {
      const closing = app;
      app = null;
      await closing?.close();
      await store.remove();
    },
  };
}

/**
 * The store of a `describe` block: opened in its beforeAll, closed and removed in its afterAll.
 * Use the object it returns inside hooks and tests; it forwards to the current context, also
 * after `reopen`.
 */
export function useTestStore(env: Record<string, string> = {}): TestStore {
  let current: TestStore | null = null;
  const opened = (): TestStore => {
    if (!current)
      throw new Error('useTestStore: the store is open from beforeAll to afterAll; use it inside hooks and tests');
    return current;
  };
  // The first context of a test file loads (and ts-jest compiles) every module and migration.
  beforeAll(async () => {
    current = await openTestStore(env);
  }, 120_000);
  afterAll(async () => {
    const store = current;
    current = null;
    await store?.close();
  });
  return {
    get app() {
      return opened().app;
    },
    get config() {
      return opened().config;
    },
    get commands() {
      return opened().commands;
    },
    get queries() {
      return opened().queries;
    },
    get: (type) => opened().get(type),
    sql<T = Record<string, unknown>>(query: string, params?: unknown[]) {
      return opened().sql<T>(query, params);
    },
    counts: (tables) => opened().counts(tables),
    reopen: () => opened().reopen(),
    close: () => opened().close(),
  };
}

/** A text snippet's seed as the SDK sends it, checked and turned into its DTO as an HTTP body is (validateInput). */
export function seedOf(raw: string, metadata: Record<string, unknown> = {}): Promise<SeedDto> {
  return validateInput(SeedDto, textSeed(raw, metadata));
}

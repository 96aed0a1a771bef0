import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../common/config/app-config';
import { Database } from '../../common/database/database.service';
import { PgListener } from '../../common/database/pg-listener';
import { NotFound, RateLimited, Unavailable } from '../../common/errors/domain-errors';
import { MCP_CHANNEL, McpSessionStore } from './mcp-session.store';

/** How often a holder refreshes its sessions' rows; a row not refreshed for STALE_MS is a dead instance's. */
const REFRESH_MS = 60_000;
const STALE_MS = 3 * REFRESH_MS;
/** Fallback poll of relayed messages while this instance holds sessions (LISTEN or Redis is the fast path). */
const RELAY_POLL_MS = 1000;
/** A comment line on every SSE stream this often, so proxies and clients see the stream alive. */
const KEEPALIVE_MS = 25_000;

interface Session {
  id: string;
  client: string;
  transport: SSEServerTransport;
  lastActive: number;
}

/**
 * The MCP SSE sessions of this instance: opened by `GET .../sse`, fed by `POST .../messages`.
 * Bounded: at most TROVE_MCP_SESSIONS_PER_CLIENT per client and TROVE_MCP_MAX_SESSIONS in all;
 * a session with no message for TROVE_MCP_IDLE_MS is closed. Each session is recorded in
 * `mcp_sessions` with this instance's id, so that a POST reaching another instance (behind a load
 * balancer) is relayed here through `mcp_relay`: woken by PostgreSQL NOTIFY, and by a poll.
 */
@Injectable()
export class McpSessions implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MCP');
  readonly instance = randomUUID();
  private readonly sessions = new Map<string, Session>();
  private readonly timers: NodeJS.Timeout[] = [];
  private listener: PgListener | null = null;
  private stopping = false;
  private draining: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: AppConfig,
    private readonly db: Database,
    private readonly store: McpSessionStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.every(Math.min(this.config.mcpIdleMs, 60_000) / 4, () => this.closeIdle());
    this.every(REFRESH_MS, () => void this.refresh());
    this.every(RELAY_POLL_MS, () => {
      if (this.sessions.size) void this.drain(true);
    });
    if (this.db.dialect === 'postgres') {
      this.listener = new PgListener(
        this.config.databaseUrl!,
        this.db.channel(MCP_CHANNEL),
        this.logger,
        (payload) => payload === this.instance && void this.drain(),
      );
      await this.listener.start();
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.timers.forEach(clearInterval);
    for (const session of [...this.sessions.values()]) await session.transport.close().catch(() => undefined);
    await this.listener?.stop();
    await this.draining;
    await this.store.forgetInstance(this.instance).catch(() => undefined);
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Opens a session on `res` (the SSE stream) for `client`, its messages to be POSTed to
   * `endpoint`: refused (429, 503) before anything is written; then `hijack` hands the response
   * over and `connect` attaches an MCP server to the transport (which starts the stream).
   */
  async open(
    client: string,
    endpoint: string,
    res: ServerResponse,
    hijack: () => void,
    connect: (transport: SSEServerTransport) => Promise<void>,
  ): Promise<string> {
    if (this.stopping) throw new Unavailable('the server is shutting down');
    if (this.sessions.size >= this.config.mcpMaxSessions) {
      throw new Unavailable(
        `this server holds its maximum of ${this.config.mcpMaxSessions} MCP sessions (TROVE_MCP_MAX_SESSIONS); retry later`,
        '30',
      );
    }
    const held = [...this.sessions.values()].filter((s) => s.client === client).length;
    if (held >= this.config.mcpSessionsPerClient) {
      throw new RateLimited(
        `this client already holds ${held} MCP sessions (TROVE_MCP_SESSIONS_PER_CLIENT); close one or wait until an idle one is closed`,
        '60',
      );
    }
    const transport = new SSEServerTransport(endpoint, res);
    const session: Session = { id: transport.sessionId, client, transport, lastActive: Date.now() };
    await this.store.opened(session.id, this.instance, client.slice(0, 128));
    this.sessions.set(session.id, session);
    hijack();
    transport.onclose = () => this.forget(session.id);
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    res.on('close', () => clearInterval(keepalive));
    try {
      await connect(transport);
    } catch (error) {
      this.forget(session.id);
      this.logger.error(`opening MCP session ${session.id} failed: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(503, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'the MCP session could not be opened',
        }),
      );
    }
    return session.id;
  }

  /**
   * Hands a POSTed message to its session: here when this instance holds it, else relayed to the
   * instance that does. NotFound when no live instance holds it.
   */
  async deliver(
    sessionId: string,
    message: unknown,
    handleLocally: (transport: SSEServerTransport) => Promise<void>,
  ): Promise<'local' | 'relayed'> {
    const session = this.sessions.get(sessionId);
    if (session) {
      session.lastActive = Date.now();
      await handleLocally(session.transport);
      return 'local';
    }
    const holder = await this.store.holder(sessionId, new Date(Date.now() - STALE_MS).toISOString());
    if (!holder || holder === this.instance)
      throw new NotFound(`MCP session ${sessionId} is unknown or has been closed; open a new one with GET .../sse`);
    await this.store.relay(holder, sessionId, message);
    return 'relayed';
  }

  private forget(id: string): void {
    if (!this.sessions.delete(id)) return;
    if (!this.stopping)
      this.store
        .closed(id)
        .catch((error: Error) => this.logger.warn(`forgetting MCP session ${id} failed: ${error.message}`));
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.config.mcpIdleMs;
    for (const session of [...this.sessions.values()]) {
      if (session.lastActive < cutoff) {
        this.logger.log(
          `closing MCP session ${session.id}: idle for ${Math.round(this.config.mcpIdleMs / 1000)} s (TROVE_MCP_IDLE_MS)`,
        );
        void session.transport.close().catch(() => undefined);
      }
    }
  }

  private async refresh(): Promise<void> {
    try {
      await this.store.refresh(this.instance, new Date(Date.now() - STALE_MS).toISOString());
    } catch (error) {
      if (!this.stopping) this.logger.warn(`refreshing MCP sessions failed: ${(error as Error).message}`);
    }
  }

  /** Delivers the messages relayed to this instance (one drain at a time, in order). */
  private drain(polled = false): Promise<void> {
    if (this.stopping) return this.draining;
    return (this.draining = this.draining.then(async () => {
      try {
        if (polled && !(await this.store.pending(this.instance))) return;
        for (const relayed of await this.store.take(this.instance)) {
          const session = this.sessions.get(relayed.sessionId);
          if (!session) continue; // closed meanwhile: the client opens a new one
          session.lastActive = Date.now();
          await session.transport.handleMessage(JSON.parse(relayed.message)).catch(() => undefined);
        }
      } catch (error) {
        if (!this.stopping) this.logger.warn(`delivering relayed MCP messages failed: ${(error as Error).message}`);
      }
    }));
  }

  private every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.push(timer);
  }
}

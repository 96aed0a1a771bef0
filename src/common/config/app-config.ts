import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ApplicationNameEnum } from '../wire/enums';

/**
 * The whole configuration of a Trove process, read once at boot from the environment.
 * Nothing else reads process.env: inject AppConfig instead.
 */
export class AppConfig {
  /** TCP port of the HTTP + WebSocket server (PORT). */
  port: number;
  /** Interface to listen on (HOST). Clients connect to the IPv4 literal 127.0.0.1. */
  host: string;
  /** Directory holding the SQLite database and other local state (TROVE_DATA_DIR). */
  dataDir: string;
  /** PostgreSQL connection string; when set it replaces SQLite (DATABASE_URL). */
  databaseUrl: string | null;
  /** Largest accepted request body, in bytes (TROVE_BODY_LIMIT). */
  bodyLimit: number;
  /** Largest upload POST /trove/import accepts, in bytes (TROVE_IMPORT_LIMIT); streamed to a temporary file, not held in memory. */
  importLimit: number;
  /** Browser origins allowed by CORS; `*` allows any (TROVE_CORS_ORIGINS, comma-separated). */
  corsOrigins: string[];
  /** Nest log levels to print (TROVE_LOG_LEVEL: error, warn, log, debug, verbose). */
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** `text` (lines for people) or `json` (one JSON object a line, and one line per request) (TROVE_LOG_FORMAT). */
  logFormat: 'text' | 'json';
  /** Integrations (ApplicationNameEnum values) allowed to connect (TROVE_ALLOWED_APPLICATIONS, comma-separated; default all). */
  allowedApplications: string[];
  /** API keys; when any is set every route but /.well-known/health needs one (TROVE_API_KEYS, comma-separated). */
  apiKeys: string[];
  /** A token that reads GET /metrics (a Prometheus scraper's); when set, /metrics needs it or an API key (TROVE_METRICS_TOKEN). */
  metricsToken: string | null;
  /** Host header names accepted (DNS-rebinding guard); `*` accepts any (TROVE_ALLOWED_HOSTS). */
  allowedHosts: string[];
  /** Requests per minute per client (API key, application or address); 0 turns the limit off (TROVE_RATE_LIMIT). */
  rateLimit: number;
  /** Requests per minute per client to question answering (question, relevance, the qgpt stream) (TROVE_RATE_LIMIT_QGPT). */
  rateLimitQgpt: number;
  /** Event-loop delay above which requests get 503 + Retry-After; 0 off (TROVE_MAX_EVENT_LOOP_DELAY_MS). */
  maxEventLoopDelayMs: number;
  /** Resident memory above which requests get 503 + Retry-After; 0 off (TROVE_MAX_RSS_MB). */
  maxRssMb: number;
  /** Deepest JSON nesting accepted (TROVE_MAX_JSON_DEPTH). */
  maxJsonDepth: number;
  /** Longest JSON array accepted (TROVE_MAX_ARRAY_LENGTH). */
  maxArrayLength: number;
  /** Longest JSON string accepted, in characters (TROVE_MAX_STRING_LENGTH). */
  maxStringLength: number;
  /** Longest request target (path + query) accepted (TROVE_MAX_URL_LENGTH). */
  maxUrlLength: number;
  /** Time a client has to send a whole request, headers included (TROVE_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Time a client has to send the request headers (TROVE_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** Private/loopback hosts that server-side fetches may reach beyond configured providers (TROVE_OUTBOUND_ALLOW, comma-separated). */
  outboundAllow: string[];
  /** How long change-stream events stay resumable with `?since=`, in hours (TROVE_STREAM_RETENTION_HOURS). */
  streamRetentionHours: number;
  /** Fallback poll of the change-stream outbox, in ms: wake-ups are never the only carrier (TROVE_STREAM_POLL_MS). */
  streamPollMs: number;
  /** Redis URL for cross-instance stream wake-ups, e.g. redis://127.0.0.1:6379; optional (TROVE_REDIS_URL). */
  redisUrl: string | null;
  /** Bytes a WebSocket may have waiting to be sent before it is closed with 1013 (TROVE_WS_SEND_BUFFER). */
  wsSendBuffer: number;
  /** Largest accepted incoming WebSocket message, in bytes; larger ones close with 1009 (TROVE_WS_MAX_PAYLOAD). */
  wsMaxPayload: number;
  /** WebSocket ping interval in ms; a peer that has not answered by the next ping is dropped (TROVE_WS_HEARTBEAT_MS). */
  wsHeartbeatMs: number;
  /** Base URL of an Ollama server (TROVE_OLLAMA_URL, e.g. http://127.0.0.1:11434); null: no Ollama provider. */
  ollamaUrl: string | null;
  /** Base URL of an OpenAI-compatible API including its /v1 (TROVE_OPENAI_URL); null: no such provider. */
  openaiUrl: string | null;
  /** Bearer key sent to the OpenAI-compatible API (TROVE_OPENAI_API_KEY). */
  openaiApiKey: string | null;
  /** Local GGUF files or directories of them for node-llama-cpp (TROVE_GGUF_PATHS, comma-separated absolute paths). */
  ggufPaths: string[];
  /** The model used when a request names none (TROVE_DEFAULT_MODEL): a model id, `provider:name`, or `offline`. */
  defaultModel: string;
  /** Model that embeds relevance passages for re-ranking (TROVE_EMBEDDING_MODEL, `provider:name`); null: lexical ranking only. */
  embeddingModel: string | null;
  /** How long a search waits for the embedding model to embed its query before it answers from the lexical index alone (TROVE_EMBEDDING_QUERY_TIMEOUT_MS). */
  embeddingQueryTimeoutMs: number;
  /** Time allowed for one provider call before it fails with 503 (TROVE_PROVIDER_TIMEOUT_MS). */
  providerTimeoutMs: number;
  /**
   * The model that names, describes and tags snippets saved without them, after the save
   * (TROVE_ENRICHMENT_MODEL, default TROVE_DEFAULT_MODEL); null when that is the offline engine
   * or TROVE_MODEL_ENRICHMENT is `off`: the offline enrichment alone.
   */
  enrichmentModel: string | null;
  /** Time one model enrichment may take before the offline result is left (TROVE_ENRICHMENT_TIMEOUT_MS). */
  enrichmentTimeoutMs: number;
  /**
   * Directories a relevance query may read local files under (TROVE_QGPT_ROOTS, comma-separated
   * absolute paths; `none`: no local files). Unset: the user's home directory when Trove
   * listens on a loopback address only (then `qgptHomeDefault`), none otherwise.
   */
  qgptRoots: string[];
  /** The roots are the default home directory: its top-level hidden entries (~/.ssh, ~/.aws, ...) stay unreadable. */
  qgptHomeDefault: boolean;
  /** Largest local file a relevance query reads, in bytes (TROVE_QGPT_FILE_LIMIT). */
  qgptFileLimit: number;
  /** MCP SSE sessions one client (API key, else address) may hold open at once (TROVE_MCP_SESSIONS_PER_CLIENT). */
  mcpSessionsPerClient: number;
  /** MCP SSE sessions this instance holds at most, all clients together (TROVE_MCP_MAX_SESSIONS). */
  mcpMaxSessions: number;
  /** An MCP SSE session with no message for this long is closed, in ms (TROVE_MCP_IDLE_MS). */
  mcpIdleMs: number;
  /** MCP messages (POSTs to the MCP endpoints: tool calls, listings) per minute per client; 0 turns the limit off (TROVE_RATE_LIMIT_MCP). */
  rateLimitMcp: number;
  /**
   * The Pieces port file written while listening and removed on a clean exit, so that clients
   * that read it first (Obsidian, Raycast, the C# SDK) find this port (TROVE_PORT_FILE: `off`, or
   * an absolute path). Unset: the Pieces OS path under the home directory when HOST is a loopback
   * address, none otherwise. null: no port file.
   */
  portFile: string | null;
  /**
   * A second listener of the same app on the port older clients and the SDK examples use (5323 on
   * Linux, 1000 elsewhere) (TROVE_LEGACY_PORT: `on`, `off` or a port number; default off). null: none.
   */
  legacyPort: number | null;
  /**
   * Which store of a team deployment this app serves (docs/TEAMS.md): null for the process's own
   * store (the one `npm start` always opens), `users/<id>` or `spaces/<id>` for a user's or a
   * shared space's, which the team front opens on demand. Not read from the environment.
   */
  storeKey: string | null = null;
  /** PostgreSQL: the schema this app's tables live in (search_path); null: the URL's default (public). */
  databaseSchema: string | null = null;
  /** A team store with no request and no open socket for this long is closed, in seconds (TROVE_STORE_IDLE_SECONDS). */
  storeIdleSeconds: number;
  /** Team stores open at once at most (TROVE_MAX_OPEN_STORES); the least recently used idle one closes first. */
  maxOpenStores: number;
  /** Audit entries older than this many days are removed (TROVE_AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  /** Storage a user's store may take, in MB; 0: no quota (TROVE_USER_QUOTA_MB). */
  userQuotaMb: number;
  /** The OpenID Connect issuer people sign in with (TROVE_OIDC_ISSUER, its base URL); null: no sign-in for people. */
  oidcIssuer: string | null;
  /** The client id Trove has at the issuer (TROVE_OIDC_CLIENT_ID). */
  oidcClientId: string | null;
  /** The client's secret, sent with HTTP Basic to the token endpoint (TROVE_OIDC_CLIENT_SECRET); null: a public client. */
  oidcClientSecret: string | null;
  /** The public URL of /auth/callback registered at the issuer (TROVE_OIDC_REDIRECT_URL); null: http://HOST:PORT/auth/callback. */
  oidcRedirectUrl: string | null;
  /** A first sign-in of an identity no user has creates a user (TROVE_OIDC_CREATE_USERS: on or off; default off). */
  oidcCreateUsers: boolean;
  /** A web session lasts this many hours from sign-in (TROVE_SESSION_HOURS). */
  sessionHours: number;

  get sqlitePath(): string {
    return join(this.dataDir, 'trove.db');
  }

  get dialect(): 'sqlite' | 'postgres' {
    return this.databaseUrl ? 'postgres' : 'sqlite';
  }

  /** HOST is a loopback address: only this machine can reach the instance. */
  get loopback(): boolean {
    return isLoopbackHost(this.host);
  }

  /**
   * Trove runs for the one user of this machine: a loopback address and no API keys. A
   * deployment for others (keys, or any other address) refuses what only that user may do
   * (POST /os/terminate).
   */
  get localMode(): boolean {
    return this.loopback && this.apiKeys.length === 0 && this.storeKey === null;
  }
}

/** 127.0.0.0/8, localhost and ::1. */
export function isLoopbackHost(host: string): boolean {
  return /^(127(\.\d{1,3}){3}|localhost|::1|\[::1\])$/.test(host);
}

/** The port older Pieces clients and the SDK examples use: 5323 on Linux, 1000 elsewhere. */
export function legacyPiecesPort(platform: NodeJS.Platform): number {
  return platform === 'linux' ? 5323 : 1000;
}

/**
 * Where Pieces OS keeps its port file, which Obsidian, Raycast and the C# SDK read (and watch)
 * before scanning ports: under Documents on Linux, Library on macOS, LOCALAPPDATA on Windows
 * (as Obsidian reads it). null on another platform.
 */
export function piecesPortFile(platform: NodeJS.Platform, home: string, localAppData?: string): string | null {
  const tail = ['com.pieces.os', 'production', 'Config', '.port.txt'];
  if (platform === 'linux') return join(home, 'Documents', ...tail);
  if (platform === 'darwin') return join(home, 'Library', ...tail);
  if (platform === 'win32')
    return join(localAppData || home, 'Mesh Intelligent Technologies, Inc', 'Pieces OS', ...tail);
  return null;
}

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
const LOG_FORMATS = ['text', 'json'] as const;

/** Parses and validates the environment; throws ConfigError listing every bad value. */
export function loadConfig(env: Env): AppConfig {
  const problems: string[] = [];
  const config = new AppConfig();

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  config.port = int('PORT', 39300, 0, 65535);
  config.host = (env.HOST ?? '127.0.0.1').trim() || '127.0.0.1';
  config.dataDir = resolve(env.TROVE_DATA_DIR?.trim() || join(homedir(), '.trove'));
  config.bodyLimit = int('TROVE_BODY_LIMIT', 4 * 1024 * 1024, 1024, 1024 * 1024 * 1024);
  config.importLimit = int('TROVE_IMPORT_LIMIT', 8 * 1024 * 1024 * 1024, 1024, 1024 * 1024 * 1024 * 1024);

  const url = env.DATABASE_URL?.trim();
  config.databaseUrl = null;
  if (url) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      problems.push(`DATABASE_URL is not a URL (got "${url}")`);
    }
    if (parsed && !['postgres:', 'postgresql:'].includes(parsed.protocol)) {
      problems.push(`DATABASE_URL must start with postgres:// or postgresql:// (got "${parsed.protocol}//...")`);
    } else if (parsed) {
      config.databaseUrl = url;
    }
  }

  /** A comma-separated setting, entries trimmed, empty ones dropped. */
  const list = (name: string, fallback = ''): string[] =>
    (env[name] ?? fallback)
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);

  config.corsOrigins = list(
    'TROVE_CORS_ORIGINS',
    'http://localhost,http://127.0.0.1,vscode-webview://*,app://obsidian.md',
  );
  for (const origin of config.corsOrigins) {
    if (origin !== '*' && !/^[a-z][a-z0-9+.-]*:\/\/[^/\s]+$/i.test(origin)) {
      problems.push(`TROVE_CORS_ORIGINS entries must be origins like http://localhost:3000 or * (got "${origin}")`);
    }
  }

  const level = (env.TROVE_LOG_LEVEL ?? 'log').trim();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    problems.push(`TROVE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${level}")`);
  }
  config.logLevel = level as AppConfig['logLevel'];
  const format = (env.TROVE_LOG_FORMAT ?? '').trim() || 'text';
  if (!(LOG_FORMATS as readonly string[]).includes(format)) {
    problems.push(`TROVE_LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')} (got "${format}")`);
  }
  config.logFormat = format as AppConfig['logFormat'];

  const allowed = list('TROVE_ALLOWED_APPLICATIONS');
  config.allowedApplications = allowed.length ? [...new Set(allowed)] : [...ApplicationNameEnum];
  const unknown = allowed.filter((a) => !(ApplicationNameEnum as readonly string[]).includes(a));
  if (unknown.length) {
    problems.push(
      `TROVE_ALLOWED_APPLICATIONS has unknown application names: ${unknown.join(', ')} (use ApplicationNameEnum values such as VS_CODE, JETBRAINS, OPEN_SOURCE)`,
    );
  }

  config.apiKeys = [...new Set(list('TROVE_API_KEYS'))];
  if (config.apiKeys.some((key) => key.length < 16 || /\s/.test(key))) {
    problems.push('TROVE_API_KEYS entries must be at least 16 characters without spaces');
  }
  config.metricsToken = env.TROVE_METRICS_TOKEN?.trim() || null;
  if (config.metricsToken !== null && (config.metricsToken.length < 16 || /\s/.test(config.metricsToken))) {
    problems.push('TROVE_METRICS_TOKEN must be at least 16 characters without spaces');
  }
  const wildcard = ['0.0.0.0', '::', '[::]'].includes(config.host);
  const hosts =
    env.TROVE_ALLOWED_HOSTS === undefined || env.TROVE_ALLOWED_HOSTS.trim() === ''
      ? ['localhost', '127.0.0.1', '[::1]', ...(wildcard ? [] : [config.host])]
      : list('TROVE_ALLOWED_HOSTS');
  config.allowedHosts = [...new Set(hosts.map((h) => h.toLowerCase()))];
  for (const host of config.allowedHosts) {
    if (host !== '*' && !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/.test(host)) {
      problems.push(
        `TROVE_ALLOWED_HOSTS entries must be host names or addresses without port or scheme (got "${host}")`,
      );
    }
  }
  config.rateLimit = int('TROVE_RATE_LIMIT', 6000, 0, 10_000_000);
  config.rateLimitQgpt = int('TROVE_RATE_LIMIT_QGPT', 120, 0, 10_000_000);
  config.maxEventLoopDelayMs = int('TROVE_MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 600_000);
  config.maxRssMb = int('TROVE_MAX_RSS_MB', 2048, 0, 1_048_576);
  config.maxJsonDepth = int('TROVE_MAX_JSON_DEPTH', 64, 2, 10_000);
  config.maxArrayLength = int('TROVE_MAX_ARRAY_LENGTH', 10_000, 1, 100_000_000);
  config.maxStringLength = int('TROVE_MAX_STRING_LENGTH', config.bodyLimit, 1, 1024 * 1024 * 1024);
  config.maxUrlLength = int('TROVE_MAX_URL_LENGTH', 4096, 64, 65_536);
  config.requestTimeoutMs = int('TROVE_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  config.headersTimeoutMs = int('TROVE_HEADERS_TIMEOUT_MS', 10_000, 100, 3_600_000);
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    problems.push('TROVE_HEADERS_TIMEOUT_MS must not exceed TROVE_REQUEST_TIMEOUT_MS');
  }
  config.outboundAllow = list('TROVE_OUTBOUND_ALLOW').map((h) => h.toLowerCase());

  config.streamRetentionHours = int('TROVE_STREAM_RETENTION_HOURS', 168, 1, 24 * 365);
  config.streamPollMs = int('TROVE_STREAM_POLL_MS', 1000, 10, 60_000);
  config.wsSendBuffer = int('TROVE_WS_SEND_BUFFER', 4 * 1024 * 1024, 1024, 1024 * 1024 * 1024);
  config.wsMaxPayload = int('TROVE_WS_MAX_PAYLOAD', 1024 * 1024, 1024, 256 * 1024 * 1024);
  config.wsHeartbeatMs = int('TROVE_WS_HEARTBEAT_MS', 30_000, 100, 600_000);
  const redis = env.TROVE_REDIS_URL?.trim();
  config.redisUrl = null;
  if (redis) {
    if (!/^rediss?:\/\/[^\s]+$/.test(redis))
      problems.push(`TROVE_REDIS_URL must start with redis:// or rediss:// (got "${redis}")`);
    else config.redisUrl = redis;
  }
  const baseUrl = (name: string): string | null => {
    const raw = env[name]?.trim();
    if (!raw) return null;
    try {
      const parsed = new URL(raw);
      if (!['http:', 'https:'].includes(parsed.protocol)) throw new Error();
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name} must be an http:// or https:// URL (got "${raw}")`);
      return null;
    }
  };
  const absolutePaths = (name: string): string[] => {
    const paths = list(name);
    for (const p of paths) if (!isAbsolute(p)) problems.push(`${name} entries must be absolute paths (got "${p}")`);
    return paths.filter((p) => isAbsolute(p)).map((p) => resolve(p));
  };
  config.ollamaUrl = baseUrl('TROVE_OLLAMA_URL');
  config.openaiUrl = baseUrl('TROVE_OPENAI_URL');
  config.openaiApiKey = env.TROVE_OPENAI_API_KEY?.trim() || null;
  if (config.openaiApiKey && !config.openaiUrl)
    problems.push('TROVE_OPENAI_API_KEY is set but TROVE_OPENAI_URL is not');
  config.ggufPaths = absolutePaths('TROVE_GGUF_PATHS');
  config.defaultModel = env.TROVE_DEFAULT_MODEL?.trim() || 'offline';
  // `provider:name` is checked here; any other value (a model id, a provider's own name such as
  // llama3.2:1b) is resolved per request and answers 404 while no provider lists it.
  const provider = config.defaultModel.includes(':') ? config.defaultModel.split(':')[0] : null;
  if (provider === 'ollama' && !config.ollamaUrl)
    problems.push('TROVE_DEFAULT_MODEL names an Ollama model but TROVE_OLLAMA_URL is not set');
  if (provider === 'openai' && !config.openaiUrl)
    problems.push('TROVE_DEFAULT_MODEL names an OpenAI-compatible model but TROVE_OPENAI_URL is not set');
  if (provider === 'llama_cpp' && config.ggufPaths.length === 0)
    problems.push('TROVE_DEFAULT_MODEL names a GGUF model but TROVE_GGUF_PATHS is not set');
  config.embeddingModel = env.TROVE_EMBEDDING_MODEL?.trim() || null;
  if (config.embeddingModel) {
    const kind = config.embeddingModel.split(':')[0];
    const needs: Record<string, [string, boolean]> = {
      ollama: ['TROVE_OLLAMA_URL', Boolean(config.ollamaUrl)],
      openai: ['TROVE_OPENAI_URL', Boolean(config.openaiUrl)],
      llama_cpp: ['TROVE_GGUF_PATHS', config.ggufPaths.length > 0],
    };
    if (!needs[kind])
      problems.push(
        `TROVE_EMBEDDING_MODEL must be provider:name with provider ollama, openai or llama_cpp (got "${config.embeddingModel}")`,
      );
    else if (!needs[kind][1])
      problems.push(`TROVE_EMBEDDING_MODEL names a ${kind} model but ${needs[kind][0]} is not set`);
  }
  config.providerTimeoutMs = int('TROVE_PROVIDER_TIMEOUT_MS', 120_000, 100, 3_600_000);
  const modelEnrichment = (env.TROVE_MODEL_ENRICHMENT ?? '').trim().toLowerCase();
  if (!['', 'on', 'off'].includes(modelEnrichment))
    problems.push(`TROVE_MODEL_ENRICHMENT must be on or off (got "${env.TROVE_MODEL_ENRICHMENT}")`);
  const enrichmentModel = env.TROVE_ENRICHMENT_MODEL?.trim() || config.defaultModel;
  const enrichmentProvider = enrichmentModel.includes(':') ? enrichmentModel.split(':')[0] : null;
  const providerSetting: Record<string, [string, boolean]> = {
    ollama: ['TROVE_OLLAMA_URL', Boolean(config.ollamaUrl)],
    openai: ['TROVE_OPENAI_URL', Boolean(config.openaiUrl)],
    llama_cpp: ['TROVE_GGUF_PATHS', config.ggufPaths.length > 0],
  };
  // The default model's provider is checked above.
  if (
    env.TROVE_ENRICHMENT_MODEL?.trim() &&
    enrichmentProvider &&
    providerSetting[enrichmentProvider] &&
    !providerSetting[enrichmentProvider][1]
  ) {
    problems.push(
      `TROVE_ENRICHMENT_MODEL names a model of ${enrichmentProvider} but ${providerSetting[enrichmentProvider][0]} is not set`,
    );
  }
  config.enrichmentModel = modelEnrichment === 'off' || enrichmentModel === 'offline' ? null : enrichmentModel;
  config.enrichmentTimeoutMs = int('TROVE_ENRICHMENT_TIMEOUT_MS', 20_000, 100, 600_000);
  config.embeddingQueryTimeoutMs = int('TROVE_EMBEDDING_QUERY_TIMEOUT_MS', 2_000, 50, 60_000);
  const roots = env.TROVE_QGPT_ROOTS?.trim();
  const loopback = isLoopbackHost(config.host);
  config.qgptHomeDefault = !roots && loopback;
  config.qgptRoots =
    roots === 'none'
      ? []
      : roots
        ? absolutePaths('TROVE_QGPT_ROOTS')
        : config.qgptHomeDefault
          ? [env.HOME?.trim() || homedir()]
          : [];
  config.qgptFileLimit = int('TROVE_QGPT_FILE_LIMIT', 1024 * 1024, 1, 64 * 1024 * 1024);
  config.mcpSessionsPerClient = int('TROVE_MCP_SESSIONS_PER_CLIENT', 16, 1, 100_000);
  config.mcpMaxSessions = int('TROVE_MCP_MAX_SESSIONS', 256, 1, 1_000_000);
  config.mcpIdleMs = int('TROVE_MCP_IDLE_MS', 30 * 60_000, 1000, 7 * 24 * 3600_000);
  config.rateLimitMcp = int('TROVE_RATE_LIMIT_MCP', 600, 0, 10_000_000);

  config.storeIdleSeconds = int('TROVE_STORE_IDLE_SECONDS', 300, 1, 7 * 24 * 3600);
  config.maxOpenStores = int('TROVE_MAX_OPEN_STORES', config.databaseUrl ? 32 : 256, 1, 100_000);
  config.auditRetentionDays = int('TROVE_AUDIT_RETENTION_DAYS', 90, 1, 36_500);
  config.userQuotaMb = int('TROVE_USER_QUOTA_MB', 0, 0, 100_000_000);

  config.oidcIssuer = baseUrl('TROVE_OIDC_ISSUER');
  config.oidcClientId = env.TROVE_OIDC_CLIENT_ID?.trim() || null;
  config.oidcClientSecret = env.TROVE_OIDC_CLIENT_SECRET?.trim() || null;
  if (Boolean(env.TROVE_OIDC_ISSUER?.trim()) !== Boolean(config.oidcClientId)) {
    problems.push('TROVE_OIDC_ISSUER and TROVE_OIDC_CLIENT_ID go together: set both or neither');
  }
  if (config.oidcClientSecret && !config.oidcClientId)
    problems.push('TROVE_OIDC_CLIENT_SECRET is set but TROVE_OIDC_CLIENT_ID is not');
  config.oidcRedirectUrl = null;
  const redirect = env.TROVE_OIDC_REDIRECT_URL?.trim();
  if (redirect) {
    const parsed = URL.canParse(redirect) ? new URL(redirect) : null;
    if (
      !parsed ||
      !['http:', 'https:'].includes(parsed.protocol) ||
      parsed.pathname !== '/auth/callback' ||
      parsed.search ||
      parsed.hash
    ) {
      problems.push(
        `TROVE_OIDC_REDIRECT_URL must be an http:// or https:// URL ending in /auth/callback (got "${redirect}")`,
      );
    } else if (!env.TROVE_OIDC_ISSUER?.trim()) {
      problems.push('TROVE_OIDC_REDIRECT_URL is set but TROVE_OIDC_ISSUER is not');
    } else config.oidcRedirectUrl = parsed.toString();
  }
  const create = (env.TROVE_OIDC_CREATE_USERS ?? '').trim().toLowerCase();
  if (!['', 'on', 'off'].includes(create))
    problems.push(`TROVE_OIDC_CREATE_USERS must be on or off (got "${env.TROVE_OIDC_CREATE_USERS}")`);
  config.oidcCreateUsers = create === 'on';
  config.sessionHours = int('TROVE_SESSION_HOURS', 12, 1, 24 * 365);

  const home = env.HOME?.trim() || homedir();
  const portFile = env.TROVE_PORT_FILE?.trim();
  if (!portFile) config.portFile = loopback ? piecesPortFile(process.platform, home, env.LOCALAPPDATA?.trim()) : null;
  else if (portFile === 'off') config.portFile = null;
  else if (isAbsolute(portFile)) config.portFile = resolve(portFile);
  else {
    problems.push(`TROVE_PORT_FILE must be off or an absolute path (got "${portFile}")`);
    config.portFile = null;
  }
  const legacy = (env.TROVE_LEGACY_PORT ?? '').trim().toLowerCase();
  config.legacyPort = null;
  if (legacy === 'on') config.legacyPort = legacyPiecesPort(process.platform);
  else if (/^\d+$/.test(legacy)) config.legacyPort = int('TROVE_LEGACY_PORT', 0, 1, 65535) || null;
  else if (legacy !== '' && legacy !== 'off') {
    problems.push(
      `TROVE_LEGACY_PORT must be on, off or a port number from 1 to 65535 (got "${env.TROVE_LEGACY_PORT}")`,
    );
  }
  if (config.legacyPort !== null && config.legacyPort === config.port) {
    problems.push(`TROVE_LEGACY_PORT must differ from PORT (both ${config.port})`);
  }

  if (problems.length) throw new ConfigError(problems);
  return config;
}

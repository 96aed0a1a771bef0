import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

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
  /** Browser origins allowed by CORS; `*` allows any (TROVE_CORS_ORIGINS, comma-separated). */
  corsOrigins: string[];
  /** Nest log levels to print (TROVE_LOG_LEVEL: error, warn, log, debug, verbose). */
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
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
  /** Time allowed for one provider call before it fails with 503 (TROVE_PROVIDER_TIMEOUT_MS). */
  providerTimeoutMs: number;
  /** Directories a relevance query may read local files under (TROVE_QGPT_ROOTS, comma-separated absolute paths). */
  qgptRoots: string[];
  /** Largest local file a relevance query reads, in bytes (TROVE_QGPT_FILE_LIMIT). */
  qgptFileLimit: number;

  get sqlitePath(): string {
    return join(this.dataDir, 'trove.db');
  }

  get dialect(): 'sqlite' | 'postgres' {
    return this.databaseUrl ? 'postgres' : 'sqlite';
  }
}

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;

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

  const origins = env.TROVE_CORS_ORIGINS ?? 'http://localhost,http://127.0.0.1,vscode-webview://*';
  config.corsOrigins = origins.split(',').map((o) => o.trim()).filter(Boolean);
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
    const list = (env[name] ?? '').split(',').map((p) => p.trim()).filter(Boolean);
    for (const p of list) if (!isAbsolute(p)) problems.push(`${name} entries must be absolute paths (got "${p}")`);
    return list.filter((p) => isAbsolute(p)).map((p) => resolve(p));
  };
  config.ollamaUrl = baseUrl('TROVE_OLLAMA_URL');
  config.openaiUrl = baseUrl('TROVE_OPENAI_URL');
  config.openaiApiKey = env.TROVE_OPENAI_API_KEY?.trim() || null;
  if (config.openaiApiKey && !config.openaiUrl) problems.push('TROVE_OPENAI_API_KEY is set but TROVE_OPENAI_URL is not');
  config.ggufPaths = absolutePaths('TROVE_GGUF_PATHS');
  config.defaultModel = env.TROVE_DEFAULT_MODEL?.trim() || 'offline';
  // `provider:name` is checked here; any other value (a model id, a provider's own name such as
  // llama3.2:1b) is resolved per request and answers 404 while no provider lists it.
  const provider = config.defaultModel.includes(':') ? config.defaultModel.split(':')[0] : null;
  if (provider === 'ollama' && !config.ollamaUrl) problems.push('TROVE_DEFAULT_MODEL names an Ollama model but TROVE_OLLAMA_URL is not set');
  if (provider === 'openai' && !config.openaiUrl) problems.push('TROVE_DEFAULT_MODEL names an OpenAI-compatible model but TROVE_OPENAI_URL is not set');
  if (provider === 'llama_cpp' && config.ggufPaths.length === 0) problems.push('TROVE_DEFAULT_MODEL names a GGUF model but TROVE_GGUF_PATHS is not set');
  config.embeddingModel = env.TROVE_EMBEDDING_MODEL?.trim() || null;
  if (config.embeddingModel) {
    const kind = config.embeddingModel.split(':')[0];
    const needs: Record<string, [string, boolean]> = {
      ollama: ['TROVE_OLLAMA_URL', Boolean(config.ollamaUrl)],
      openai: ['TROVE_OPENAI_URL', Boolean(config.openaiUrl)],
      llama_cpp: ['TROVE_GGUF_PATHS', config.ggufPaths.length > 0],
    };
    if (!needs[kind]) problems.push(`TROVE_EMBEDDING_MODEL must be provider:name with provider ollama, openai or llama_cpp (got "${config.embeddingModel}")`);
    else if (!needs[kind][1]) problems.push(`TROVE_EMBEDDING_MODEL names a ${kind} model but ${needs[kind][0]} is not set`);
  }
  config.providerTimeoutMs = int('TROVE_PROVIDER_TIMEOUT_MS', 120_000, 100, 3_600_000);
  config.qgptRoots = absolutePaths('TROVE_QGPT_ROOTS');
  config.qgptFileLimit = int('TROVE_QGPT_FILE_LIMIT', 1024 * 1024, 1, 64 * 1024 * 1024);

  if (problems.length) throw new ConfigError(problems);
  return config;
}

import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
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
  /** Browser origins allowed by CORS; `*` allows any (TROVE_CORS_ORIGINS, comma-separated). */
  corsOrigins: string[];
  /** Nest log levels to print (TROVE_LOG_LEVEL: error, warn, log, debug, verbose). */
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** Integrations (ApplicationNameEnum values) allowed to connect (TROVE_ALLOWED_APPLICATIONS, comma-separated; default all). */
  allowedApplications: string[];

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

  const allowed = (env.TROVE_ALLOWED_APPLICATIONS ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  config.allowedApplications = allowed.length ? [...new Set(allowed)] : [...ApplicationNameEnum];
  const unknown = allowed.filter((a) => !(ApplicationNameEnum as readonly string[]).includes(a));
  if (unknown.length) {
    problems.push(`TROVE_ALLOWED_APPLICATIONS has unknown application names: ${unknown.join(', ')} (use ApplicationNameEnum values such as VS_CODE, JETBRAINS, OPEN_SOURCE)`);
  }

  if (problems.length) throw new ConfigError(problems);
  return config;
}

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/common/config/app-config';

/** Runs src/main.ts as a real process (the way `npm start` runs the compiled file). */
// Transpiling and booting the whole app takes a few seconds alone, over 20 s on two busy cores.
function runMain(
  env: Record<string, string>,
  waitForLine: RegExp,
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      cwd: join(__dirname, '..', '..'),
      env: { PATH: process.env.PATH!, HOME: process.env.HOME!, TROVE_PORT_FILE: 'off', ...env },
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out; output so far:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (waitForLine.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({ HOME: '/home/someone' });
    expect(config.port).toBe(39300);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dialect).toBe('sqlite');
    expect(config.bodyLimit).toBe(4 * 1024 * 1024);
    expect(config.corsOrigins).toContain('http://localhost');
    expect(config.allowedApplications).toEqual(
      expect.arrayContaining(['VS_CODE', 'JETBRAINS', 'OPEN_SOURCE', 'PIECES_FOR_DEVELOPERS_CLI']),
    );
    expect(config.logFormat).toBe('text');
    expect(config.metricsToken).toBeNull();
  });

  it('switches to PostgreSQL with DATABASE_URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/trove' });
    expect(config.dialect).toBe('postgres');
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer from 0 to 65535 \(got "abc"\)/],
    [{ PORT: '70000' }, /PORT must be an integer/],
    [{ PORT: '1.5' }, /PORT must be an integer/],
    [{ TROVE_BODY_LIMIT: '-1' }, /TROVE_BODY_LIMIT must be an integer/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres:\/\//],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL is not a URL/],
    [{ TROVE_CORS_ORIGINS: 'localhost:3000' }, /TROVE_CORS_ORIGINS entries must be origins/],
    [{ TROVE_LOG_LEVEL: 'loud' }, /TROVE_LOG_LEVEL must be one of/],
    [{ TROVE_LOG_FORMAT: 'JSON lines' }, /TROVE_LOG_FORMAT must be one of text, json \(got "JSON lines"\)/],
    [{ TROVE_METRICS_TOKEN: 'short' }, /TROVE_METRICS_TOKEN must be at least 16 characters without spaces/],
    [
      { TROVE_METRICS_TOKEN: 'a token with spaces in it' },
      /TROVE_METRICS_TOKEN must be at least 16 characters without spaces/,
    ],
    [
      { TROVE_ALLOWED_APPLICATIONS: 'VS_CODE,EMACSS' },
      /TROVE_ALLOWED_APPLICATIONS has unknown application names: EMACSS/,
    ],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('lists every bad value at once', () => {
    expect(() => loadConfig({ PORT: 'x', TROVE_LOG_LEVEL: 'y' })).toThrow(/PORT[\s\S]*TROVE_LOG_LEVEL/);
  });

  it('a bad value stops the process before it listens, with the message and exit code 78', async () => {
    const { code, output } = await runMain({ PORT: 'not-a-port', TROVE_DATA_DIR: '/tmp/never' }, /$^/);
    expect(code).toBe(78);
    expect(output).toMatch(/Invalid configuration:\s+- PORT must be an integer/);
    expect(output).not.toMatch(/listening/);
  }, 90_000);

  it('starts with no set-up: creates the data directory and the SQLite database, and listens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trove-boot-'));
    try {
      const dataDir = join(dir, 'nested', 'data');
      const { output } = await runMain(
        { PORT: '0', TROVE_DATA_DIR: dataDir },
        /listening on http:\/\/127\.0\.0\.1:\d+/,
      );
      expect(output).toContain(join(dataDir, 'trove.db'));
      // One short banner says where to go; Nest's line per route is debug-level.
      expect(output).toMatch(/app {6}http:\/\/127\.0\.0\.1:\d+\//);
      expect(output).toMatch(/API {6}http:\/\/127\.0\.0\.1:\d+\/docs/);
      expect(output).toMatch(/MCP {6}http:\/\/127\.0\.0\.1:\d+\/model_context_protocol\/2025-03-26\/mcp/);
      expect(output).toMatch(/models {3}Trove Extractive \(offline\) answers by default/);
      expect(output).not.toMatch(/Mapped \{|RoutesResolver|InstanceLoader/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

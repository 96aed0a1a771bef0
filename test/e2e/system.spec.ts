import { ApplicationsApi, Configuration, UserApi, WellKnownApi } from '@pieces.app/pieces-os-client';
import { expectError, http } from './support/http';
import { useTestServer } from './support/server';
import { expectWire } from './support/wire';

describe('discovery endpoints real clients call first', () => {
  const server = useTestServer({ TROVE_CORS_ORIGINS: 'http://localhost,https://app.example.com' });

  it('answers GET and HEAD /.well-known/health with text ok', async () => {
    const get = await http(server.baseUrl, 'GET', '/.well-known/health');
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(get.text.startsWith('ok')).toBe(true);
    const head = await fetch(`${server.baseUrl}/.well-known/health`, {
      method: 'HEAD',
      signal: AbortSignal.timeout(100),
    });
    expect(head.status).toBe(200);
    expect(await new WellKnownApi(server.sdk).getWellKnownHealth()).toMatch(/^ok/);
  });

  it('reports a version current clients accept (>= 12.0.0, < 13.0.0) as text', async () => {
    const res = await http(server.baseUrl, 'GET', '/.well-known/version');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const [major, minor, patch] = res.text.split('.').map(Number);
    expect(major).toBe(12);
    expect(Number.isInteger(minor) && Number.isInteger(patch)).toBe(true);
    expect(await new WellKnownApi(server.sdk).getWellKnownVersion()).toBe(res.text);
  });

  it('serves the one local user, stable across calls and restarts of the query', async () => {
    const a = await http(server.baseUrl, 'GET', '/user');
    expectWire('User', a.json);
    const b = await new UserApi(server.sdk).userSnapshot();
    expect(b.user?.id).toBe(a.json.user.id);
    const stored = await server.sql<{ value: string }>(`SELECT value FROM settings WHERE key = 'user.id'`);
    expect(stored[0].value).toBe(a.json.user.id);
  });

  it('lists connected applications as an iterable', async () => {
    const res = await http(server.baseUrl, 'GET', '/applications');
    expectWire('Applications', res.json);
    const viaSdk = await new ApplicationsApi(server.sdk).applicationsSnapshot();
    expect(viaSdk.iterable).toEqual(res.json.iterable);
  });

  it('answers preflights for allowed origins only', async () => {
    const allowed = await http(server.baseUrl, 'OPTIONS', '/assets/create', undefined, {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,x-application-id',
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/content-type/);
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/x-application-id/);
    const exact = await http(server.baseUrl, 'GET', '/.well-known/health', undefined, {
      origin: 'https://app.example.com',
    });
    expect(exact.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const refused = await http(server.baseUrl, 'OPTIONS', '/assets/create', undefined, {
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
    });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const lookalike = await http(server.baseUrl, 'GET', '/.well-known/health', undefined, {
      origin: 'http://localhost.evil.example',
    });
    expect(lookalike.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('tolerates the headers clients send', async () => {
    const res = await http(server.baseUrl, 'GET', '/assets', undefined, {
      'x-application-id': 'abc',
      application: 'VS_CODE',
    });
    expect(res.status).toBe(200);
  });

  it('answers unknown routes with a JSON 404, and a served path under another method with a JSON 405 and Allow', async () => {
    expectError(await http(server.baseUrl, 'GET', '/no/such/route'), 404, /Cannot GET \/no\/such\/route/);
    const wrongMethod = await http(server.baseUrl, 'POST', '/.well-known/health');
    expectError(wrongMethod, 405, /answers GET, HEAD/);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
  });

  it('runs SQLite with WAL, synchronous=FULL and foreign keys on', async () => {
    if (server.config.dialect !== 'sqlite') return expect(server.config.databaseUrl).toMatch(/^postgres/);
    expect(await server.sql('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    expect(await server.sql('PRAGMA synchronous')).toEqual([{ synchronous: 2 }]);
    expect(await server.sql('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
  });

  it('a client pointed at the wrong port gets nothing (sanity for the port scan)', async () => {
    const other = new WellKnownApi(new Configuration({ basePath: 'http://127.0.0.1:9' }));
    await expect(other.getWellKnownHealth()).rejects.toBeDefined();
  });
});

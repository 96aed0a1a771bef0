import { AssetsApi, Configuration } from '@pieces.app/pieces-os-client';
import { expectError, http } from './support/http';
import { textSeed } from './support/seeds';
import { useTestServer } from './support/server';

const TABLES = ['assets', 'formats', 'idempotency_keys'];

describe('idempotent creates (Idempotency-Key)', () => {
  const server = useTestServer();

  it('a retry with the same key answers the same asset and creates nothing more', async () => {
    const seed = textSeed('const retried = "once";', { name: 'retried once' });
    const first = await http(server.baseUrl, 'POST', '/assets/create', seed, { 'idempotency-key': 'create-1' });
    expect(first.status).toBe(200);
    const before = await server.counts(TABLES);
    const again = await http(server.baseUrl, 'POST', '/assets/create', seed, { 'idempotency-key': 'create-1' });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(first.json.id);
    expect(again.json.name).toBe('retried once');
    expect(await server.counts(TABLES)).toBe(before);
    // Without a key, or with another key, it is a new asset.
    const other = await http(server.baseUrl, 'POST', '/assets/create', seed, { 'idempotency-key': 'create-2' });
    expect(other.json.id).not.toBe(first.json.id);
  });

  it('the SDK can send the key as a header', async () => {
    const api = new AssetsApi(
      new Configuration({ basePath: server.baseUrl, headers: { 'Idempotency-Key': 'sdk-key-1' } }),
    );
    const a = await api.assetsCreateNewAsset({ seed: textSeed('print("sdk retry")') });
    const b = await api.assetsCreateNewAsset({ seed: textSeed('print("sdk retry")') });
    expect(b.id).toBe(a.id);
  });

  it('concurrent requests with one key create exactly one asset', async () => {
    const seed = textSeed('const raced = true;');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        http(server.baseUrl, 'POST', '/assets/create', seed, { 'idempotency-key': 'raced-key' }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    const rows = await server.sql<{ n: number }>(`SELECT COUNT(*) AS n FROM formats WHERE raw = 'const raced = true;'`);
    expect(Number(rows[0].n)).toBe(1);
  });

  it('the same key with another body is a 422; a malformed key is a 400; neither writes', async () => {
    await http(server.baseUrl, 'POST', '/assets/create', textSeed('first body'), { 'idempotency-key': 'reused-key' });
    const before = await server.counts(TABLES);
    expectError(
      await http(server.baseUrl, 'POST', '/assets/create', textSeed('second body'), {
        'idempotency-key': 'reused-key',
      }),
      422,
      /different request/,
    );
    expectError(
      await http(server.baseUrl, 'POST', '/assets/create', textSeed('x'), { 'idempotency-key': 'has space' }),
      400,
      /Idempotency-Key/,
    );
    expectError(
      await http(server.baseUrl, 'POST', '/assets/create', textSeed('x'), { 'idempotency-key': 'k'.repeat(256) }),
      400,
      /Idempotency-Key/,
    );
    expect(await server.counts(TABLES)).toBe(before);
  });
});

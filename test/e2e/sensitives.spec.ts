import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SensitivesApi } from '@pieces.app/pieces-os-client';
import { expectError, http } from './support/http';
import { startTestServer, useTestServer } from './support/server';

/**
 * Secrets in what a user saves: found at save and at every change of the text (secretlint's
 * recommended preset and Trove's own rules), shown as the asset's `sensitives` in the SDK's
 * shape with the secret masked, listed by GET /sensitives, read by GET /sensitive/{id}, and
 * dismissed by POST /sensitives/{id}/delete (then it stays dismissed for that value).
 */

// Written for this spec (not the eval's generator): an AWS key id and a database URL with a password.
const AWS_KEY = 'AKIAZ7Q4XK2PLM9RT3VB';
const DB_PASSWORD = 'w8Jq2LzP0vKx';
const CONFIG = `import boto3\n\nAWS_ACCESS_KEY_ID = "${AWS_KEY}"\nDATABASE_URL = "postgres://billing:${DB_PASSWORD}@db.internal.acme.io:5432/ledger"\n\ns3 = boto3.client("s3")\n`;
const CLEAN = 'def add(a, b):\n    """Add two numbers."""\n    return a + b\n';
const GH_TOKEN = 'ghp_R4nd0mT0k3nV4lu3F0rTh1sSp3cXyZ123456';

interface Sensitive {
  id: string;
  asset: { id: string };
  text: string;
  category: string;
  severity: string;
  name: string;
  description: string;
  mechanism: string;
  metadata: { match: { group: { text: string; start: number; end: number } }; entropy?: number };
}

describe('sensitives: secrets found in assets', () => {
  const server = useTestServer();

  const create = async (raw: string) => {
    const res = await http(server.baseUrl, 'POST', '/assets/create', {
      type: 'SEEDED_ASSET',
      asset: { format: { fragment: { string: { raw } } } },
    });
    expect(res.status).toBe(200);
    return res.json;
  };
  const get = async (id: string) => (await http(server.baseUrl, 'GET', `/asset/${id}`)).json;
  const list = async (): Promise<Sensitive[]> => (await http(server.baseUrl, 'GET', '/sensitives')).json.iterable;
  const setText = async (id: string, raw: string) => {
    const asset = await get(id);
    const res = await http(server.baseUrl, 'POST', '/asset/update', {
      ...asset,
      formats: { iterable: [{ ...asset.formats.iterable[0], fragment: { string: { raw } } }] },
    });
    expect(res.status).toBe(200);
    return res.json;
  };
  const sensitivesOf = (asset: { sensitives?: { iterable: Sensitive[] } }) => asset.sensitives?.iterable ?? [];

  it('finds the secrets of a new asset, in the SDK shape, masked, in its create answer and its reads', async () => {
    const created = await create(CONFIG);
    const found = sensitivesOf(created);
    expect(found.map((s) => s.category).sort()).toEqual(['ACCESS_KEY', 'URL']);
    const key = found.find((s) => s.category === 'ACCESS_KEY')!;
    expect(key).toMatchObject({
      asset: { id: created.id },
      severity: 'HIGH',
      mechanism: 'AUTOMATIC',
      name: 'AWS access key id',
      text: 'AKIA************T3VB',
    });
    // The SDKs' Sensitive.asset is a FlattenedAsset: the Python SDK (the Pieces CLI's) refuses the asset without its required fields.
    const format = created.formats.iterable[0].id;
    expect(key.asset).toMatchObject({
      id: created.id,
      creator: expect.any(String),
      created: { value: expect.any(String) },
      updated: { value: expect.any(String) },
      formats: { iterable: [{ id: format }] },
      preview: { base: format },
      original: format,
    });
    // Where it is: the offsets of the secret in the text.
    expect(CONFIG.slice(key.metadata.match.group.start, key.metadata.match.group.end)).toBe(AWS_KEY);
    const url = found.find((s) => s.category === 'URL')!;
    expect(CONFIG.slice(url.metadata.match.group.start, url.metadata.match.group.end)).toContain(DB_PASSWORD);
    // The secret itself is nowhere in what describes it.
    for (const s of found) {
      const described = JSON.stringify(s);
      expect(described).not.toContain(AWS_KEY);
      expect(described).not.toContain(DB_PASSWORD);
    }
    expect(sensitivesOf(await get(created.id))).toEqual(found);
    const listed = await list();
    expect(listed.filter((s) => s.asset.id === created.id)).toEqual(found);
    const one = await http(server.baseUrl, 'GET', `/sensitive/${key.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual(key);
  });

  it('the official SDK reads them', async () => {
    const created = await create(`token = "${GH_TOKEN}"\n`);
    const api = new SensitivesApi(server.sdk);
    const all = await api.sensitivesSnapshot();
    const mine = all.iterable.filter((s) => s.asset.id === created.id);
    expect(mine).toHaveLength(1);
    expect(mine[0].category).toBe('ACCESS_TOKEN');
    expect(mine[0].metadata?.match?.group.start).toBe(9);
    expect(mine[0].text).not.toContain(GH_TOKEN);
  });

  it('finds none in clean code: the asset has no sensitives field', async () => {
    const created = await create(CLEAN);
    expect(created.sensitives).toBeUndefined();
    expect((await list()).some((s) => s.asset.id === created.id)).toBe(false);
  });

  it('follows the text: a secret added is flagged, one removed goes', async () => {
    const created = await create(CLEAN);
    const withToken = await setText(created.id, `${CLEAN}\nGITHUB_TOKEN = "${GH_TOKEN}"\n`);
    const [token] = sensitivesOf(withToken);
    expect(token).toMatchObject({ category: 'ACCESS_TOKEN', name: 'GitHub token' });
    // Moved by an edit before it: the same record, its place updated.
    const moved = await setText(created.id, `# config\n${CLEAN}\nGITHUB_TOKEN = "${GH_TOKEN}"\n`);
    expect(sensitivesOf(moved).map((s) => s.id)).toEqual([token.id]);
    expect(sensitivesOf(moved)[0].metadata.match.group.start).toBe(
      token.metadata.match.group.start + '# config\n'.length,
    );
    const cleaned = await setText(created.id, CLEAN);
    expect(cleaned.sensitives).toBeUndefined();
    expectError(await http(server.baseUrl, 'GET', `/sensitive/${token.id}`), 404);
  });

  it('a dismissed secret stays dismissed for its value; a new secret in the text is flagged', async () => {
    const created = await create(CONFIG);
    const key = sensitivesOf(created).find((s) => s.category === 'ACCESS_KEY')!;
    const dismissed = await http(server.baseUrl, 'POST', `/sensitives/${key.id}/delete`);
    expect(dismissed.status).toBe(204);
    expectError(await http(server.baseUrl, 'GET', `/sensitive/${key.id}`), 404);
    const after = await get(created.id);
    expect(sensitivesOf(after).map((s) => s.category)).toEqual(['URL']);
    expect((await list()).some((s) => s.id === key.id)).toBe(false);
    // Detected again on an edit that keeps the value: still dismissed.
    const renamed = await setText(created.id, `# settings\n${CONFIG}`);
    expect(sensitivesOf(renamed).map((s) => s.category)).toEqual(['URL']);
    // A new secret is flagged.
    const added = await setText(created.id, `# settings\n${CONFIG}GITHUB_TOKEN = "${GH_TOKEN}"\n`);
    expect(
      sensitivesOf(added)
        .map((s) => s.category)
        .sort(),
    ).toEqual(['ACCESS_TOKEN', 'URL']);
    // Dismissing it twice: the second is a 404 and changes nothing.
    expectError(await http(server.baseUrl, 'POST', `/sensitives/${key.id}/delete`), 404);
    expect(sensitivesOf(await get(created.id))).toHaveLength(2);
  });

  it('answers bad input with a 4xx JSON error and changes nothing', async () => {
    await create(CONFIG);
    const before = await list();
    expectError(await http(server.baseUrl, 'GET', '/sensitive/not-a-uuid'), 400);
    expectError(await http(server.baseUrl, 'POST', '/sensitives/not-a-uuid/delete'), 400);
    expectError(await http(server.baseUrl, 'POST', '/sensitives/00000000-0000-4000-8000-000000000000/delete'), 404);
    expectError(await http(server.baseUrl, 'GET', '/sensitive/00000000-0000-4000-8000-000000000000'), 404);
    expect(await list()).toEqual(before);
  });

  it("a deleted asset's secrets go with it", async () => {
    const created = await create(CONFIG);
    const ids = sensitivesOf(created).map((s) => s.id);
    expect((await http(server.baseUrl, 'POST', `/assets/${created.id}/delete`)).status).toBe(200);
    const listed = new Set((await list()).map((s) => s.id));
    expect(ids.some((id) => listed.has(id))).toBe(false);
  });

  it('keeps the secret text out of the database rows that describe it', async () => {
    const created = await create(CONFIG);
    const rows = await server.sql(`SELECT * FROM sensitives WHERE asset_id = '${created.id}'`);
    expect(rows).toHaveLength(2);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(AWS_KEY);
    expect(text).not.toContain(DB_PASSWORD);
  });

  it('MCP snippet tools mask the secrets unless the caller asks for them', async () => {
    const created = await create(`# billing settings for snipmaskcheck\n${CONFIG}`);
    const client = new Client({ name: 'sensitives-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/model_context_protocol/2025-03-26/mcp`)),
    );
    try {
      const textOf = (result: unknown) =>
        ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      const masked = textOf(await client.callTool({ name: 'get_snippet', arguments: { id: created.id } }));
      expect(masked).toContain('AKIA************T3VB');
      expect(masked).not.toContain(AWS_KEY);
      expect(masked).not.toContain(DB_PASSWORD);
      expect(masked).toContain('reveal_secrets');
      const revealed = textOf(
        await client.callTool({ name: 'get_snippet', arguments: { id: created.id, reveal_secrets: true } }),
      );
      expect(revealed).toContain(AWS_KEY);
      expect(revealed).toContain(DB_PASSWORD);
      const resource = await client.readResource({ uri: `trove://snippets/${created.id}` });
      expect((resource.contents[0] as { text: string }).text).not.toContain(AWS_KEY);
      const found = textOf(await client.callTool({ name: 'search_snippets', arguments: { query: 'snipmaskcheck' } }));
      expect(found).toContain(created.id);
      expect(found).not.toContain(AWS_KEY);
      const foundRevealed = textOf(
        await client.callTool({ name: 'search_snippets', arguments: { query: 'snipmaskcheck', reveal_secrets: true } }),
      );
      expect(foundRevealed).toContain(AWS_KEY);
      // A bad argument is a tool error, and nothing is revealed.
      const bad = (await client.callTool({
        name: 'get_snippet',
        arguments: { id: created.id, reveal_secrets: 'yes' },
      })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).not.toContain(AWS_KEY);
    } finally {
      await client.close();
    }
  });

  it('an import finds the secrets of the assets it brings', async () => {
    const created = await create(CONFIG);
    const exported = await http(server.baseUrl, 'GET', '/trove/export');
    expect(exported.status).toBe(200);
    const target = await startTestServer();
    try {
      const imported = await http(target.baseUrl, 'POST', '/trove/import', exported.text, {
        'content-type': 'application/x-ndjson',
      });
      expect(imported.status).toBe(200);
      const asset = (await http(target.baseUrl, 'GET', `/asset/${created.id}`)).json;
      expect(
        sensitivesOf(asset)
          .map((s) => s.category)
          .sort(),
      ).toEqual(['ACCESS_KEY', 'URL']);
      const listed = (await http(target.baseUrl, 'GET', '/sensitives')).json.iterable as Sensitive[];
      expect(listed.filter((s) => s.asset.id === created.id)).toHaveLength(2);
    } finally {
      await target.close();
    }
  });
});

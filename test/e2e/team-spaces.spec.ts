import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expectError, http } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { addUser, bearer, trove } from './support/team';
import { upgradeAnswer } from './support/ws';

// Issue 44's shared spaces beyond one request in one store: a search across the caller's own
// store and the spaces they belong to, each result labelled; MCP's search and read in a space;
// copying a snippet into a space. Who may see what is asserted from both sides.

interface Label {
  space: string | null;
  name: string;
  role: string;
}
interface Hit {
  identifier: string;
  score: number;
  space: Label;
  asset?: { name: string };
}

const WORD = `quokka${Math.random().toString(36).slice(2, 8)}`;
const texts = {
  bobOwn: `def ${WORD}_bob_private_report(rows):\n    return sorted(rows)\n`,
  platform: `def ${WORD}_platform_deploy(service):\n    return f"deploy {service}"\n`,
  lab: `def ${WORD}_lab_experiment(seed):\n    return seed * 2\n`,
  carolOwn: `def ${WORD}_carol_notes(text):\n    return text.strip()\n`,
};

async function mcpClient(server: TestServer, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(
    new URL(`${server.baseUrl}/model_context_protocol/2025-03-26/mcp`),
    {
      requestInit: { headers: bearer(token) },
    },
  );
  const client = new Client({ name: 'team-spaces-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}
const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('a team deployment: searching across spaces and copying into one', () => {
  let server: TestServer;
  let bob: string; // editor of platform and lab
  let carol: string; // reader of platform, not in lab
  const ids: Record<string, string> = {};
  const as = (token: string, space?: string) => ({ ...bearer(token), ...(space ? { 'x-trove-space': space } : {}) });
  const save = async (token: string, raw: string, space?: string) => {
    const res = await http(server.baseUrl, 'POST', '/assets/create', textSeed(raw), as(token, space));
    expect(res.status).toBe(200);
    return (res.json as { id: string }).id;
  };
  const spacesOf = async (token: string) =>
    (await http(server.baseUrl, 'GET', '/trove/spaces', undefined, bearer(token))).json as {
      iterable: Label[];
      team: boolean;
    };

  beforeAll(async () => {
    server = await startTestServer();
    // Without users there is one store: the list says so, and a copy has nowhere to go.
    expect(await http(server.baseUrl, 'GET', '/trove/spaces')).toMatchObject({
      status: 200,
      json: { team: false, iterable: [{ space: null, name: 'mine', role: 'owner' }] },
    });
    await addUser(server, 'alice', true);
    bob = await addUser(server, 'bob');
    carol = await addUser(server, 'carol');
    for (const [space, members] of [
      [
        'platform',
        [
          ['bob', 'editor'],
          ['carol', 'reader'],
        ],
      ],
      ['lab', [['bob', 'editor']]],
    ] as const) {
      expect((await trove(server, ['spaces', 'add', space])).code).toBe(0);
      for (const [user, role] of members)
        expect((await trove(server, ['spaces', 'member', space, user, '--role', role])).code).toBe(0);
    }
    // The front reads the directory about once a second.
    for (let i = 0; i < 50 && (await spacesOf(carol)).iterable?.length !== 2; i++)
      await new Promise((r) => setTimeout(r, 100));
    ids.bobOwn = await save(bob, texts.bobOwn);
    ids.platform = await save(bob, texts.platform, 'platform');
    ids.lab = await save(bob, texts.lab, 'lab');
    ids.carolOwn = await save(carol, texts.carolOwn);
  }, 60_000);
  afterAll(() => server?.close());

  it('lists the stores each user may read: their own, then their spaces with their role', async () => {
    expect(await spacesOf(bob)).toEqual({
      team: true,
      iterable: [
        { space: null, name: 'mine', role: 'owner' },
        { space: expect.stringMatching(/^[0-9a-f]{16}$/), name: 'lab', role: 'editor' },
        { space: expect.stringMatching(/^[0-9a-f]{16}$/), name: 'platform', role: 'editor' },
      ],
    });
    expect((await spacesOf(carol)).iterable.map((s) => `${s.name}:${s.role}`)).toEqual([
      'mine:owner',
      'platform:reader',
    ]);
  });

  it('searches the own store and every space together with X-Trove-Space: *, each result saying where it comes from', async () => {
    const everywhere = { 'x-trove-space': '*' };
    const bobs = await http(
      server.baseUrl,
      'POST',
      '/assets/search?transferables=false',
      { query: WORD },
      { ...bearer(bob), ...everywhere },
    );
    expect(bobs.status).toBe(200);
    const hits = (bobs.json as { results: { iterable: Hit[]; exact: number; suggested: number } }).results;
    const where = Object.fromEntries(hits.iterable.map((h) => [h.identifier, h.space.name]));
    expect(where).toEqual({ [ids.bobOwn]: 'mine', [ids.platform]: 'platform', [ids.lab]: 'lab' });
    expect(hits.exact + hits.suggested).toBe(3);
    const scores = hits.iterable.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    // Carol: her own and the space she reads; never Bob's own store or a space she is not in.
    const carols = await http(server.baseUrl, 'GET', `/assets/search?query=${WORD}`, undefined, {
      ...bearer(carol),
      ...everywhere,
    });
    expect(carols.status).toBe(200);
    const seen = (carols.json as { iterable: Hit[] }).iterable;
    expect(Object.fromEntries(seen.map((h) => [h.identifier, `${h.space.name}:${h.space.role}`]))).toEqual({
      [ids.carolOwn]: 'mine:owner',
      [ids.platform]: 'platform:reader',
    });
    expect(carols.text).not.toContain('bob_private_report');
    expect(carols.text).not.toContain('lab_experiment');

    // Without the header a search stays in one store, unlabelled.
    const plain = await http(server.baseUrl, 'POST', '/assets/search', { query: WORD }, bearer(carol));
    expect(
      (plain.json as { results: { iterable: Hit[] } }).results.iterable.map((h) => [h.identifier, h.space]),
    ).toEqual([[ids.carolOwn, undefined]]);
  });

  it('grounds relevance in every store too, each passage labelled', async () => {
    const res = await http(
      server.baseUrl,
      'POST',
      '/qgpt/relevance',
      { query: `${WORD} deploy service`, options: { database: true } },
      { ...bearer(carol), 'x-trove-space': '*' },
    );
    expect(res.status).toBe(200);
    const seeds = (
      res.json as { relevant: { iterable: Array<{ asset?: { id: string }; space: Label; score: number }> } }
    ).relevant.iterable;
    const top = seeds.find((s) => s.asset?.id === ids.platform);
    expect(top?.space).toMatchObject({ name: 'platform', role: 'reader' });
    expect(seeds.every((s) => s.space && [ids.carolOwn, ids.platform].includes(s.asset!.id))).toBe(true);
    expect(res.text).not.toContain('lab_experiment');
  });

  it('refuses X-Trove-Space: * on a write or a stream, changing nothing', async () => {
    const before = await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, bearer(bob));
    expectError(
      await http(server.baseUrl, 'POST', '/assets/create', textSeed('const where = 1;'), {
        ...bearer(bob),
        'x-trove-space': '*',
      }),
      400,
      /is for searches/,
    );
    expect(
      await upgradeAnswer(`${server.baseUrl}/assets/stream/identifiers`, { ...bearer(bob), 'x-trove-space': '*' }),
    ).toMatchObject({ status: 400 });
    expect((await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, bearer(bob))).json).toEqual(
      before.json,
    );
  });

  it('searches the spaces over MCP when asked, and reads a result in its space', async () => {
    const client = await mcpClient(server, carol);
    try {
      const own = textOf(await client.callTool({ name: 'search_snippets', arguments: { query: WORD } }));
      expect(own).toContain(ids.carolOwn);
      expect(own).not.toContain(ids.platform);
      const all = textOf(
        await client.callTool({ name: 'search_snippets', arguments: { query: WORD, everywhere: true } }),
      );
      expect(all).toContain(`id ${ids.platform}, in space “platform”`);
      expect(all).toContain(`id ${ids.carolOwn}, yours`);
      expect(all).not.toContain(ids.lab);
      const read = await client.callTool({ name: 'get_snippet', arguments: { id: ids.platform, space: 'platform' } });
      expect(textOf(read)).toContain(`${WORD}_platform_deploy`);
      // A space Carol is not in answers as a space that does not exist.
      const lab = await client.callTool({ name: 'get_snippet', arguments: { id: ids.lab, space: 'lab' } });
      expect((lab as CallToolResult).isError).toBe(true);
      expect(textOf(lab)).toMatch(/no space "lab" that you belong to/);
      expect(textOf(lab)).not.toContain('lab_experiment');
      // A save over MCP is one audit entry, naming the snippet it made (never its content).
      const saved = textOf(
        await client.callTool({ name: 'save_snippet', arguments: { content: `const ${WORD}Mcp = 1;` } }),
      );
      const id = /id ([0-9a-f-]{36})/.exec(saved)![1];
      let entries = '';
      for (let i = 0; i < 50 && !entries.includes(id); i++) {
        if (i) await new Promise((r) => setTimeout(r, 200));
        entries = (await trove(server, ['audit', '--json', '--user', 'carol', '--since', '1h'])).stdout;
      }
      const entry = entries
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((e) => e.record === id);
      expect(entry).toMatchObject({ action: 'create', method: 'MCP', route: 'mcp:save_snippet', userName: 'carol' });
      expect(entries).not.toContain(`${WORD}Mcp`);
    } finally {
      await client.close();
    }
  });

  it('copies a snippet into a space its editor names, with its name, tags and language; readers and strangers cannot', async () => {
    const original = (
      await http(server.baseUrl, 'GET', `/asset/${ids.bobOwn}?transferables=true`, undefined, bearer(bob))
    ).json as {
      name: string;
      tags: { iterable: Array<{ text: string }> };
      original: { reference: { classification: { specific: string } } };
    };
    const copied = await http(server.baseUrl, 'POST', `/asset/${ids.bobOwn}/copy`, { space: 'platform' }, bearer(bob));
    expect(copied.status).toBe(201);
    const { asset, space } = copied.json as { asset: { id: string; name: string }; space: Label };
    expect(space).toMatchObject({ name: 'platform', role: 'editor' });
    expect(asset.id).not.toBe(ids.bobOwn);
    const inSpace = (
      await http(server.baseUrl, 'GET', `/asset/${asset.id}?transferables=true`, undefined, as(carol, 'platform'))
    ).json as typeof original & {
      original: { reference: { fragment: { string: { raw: string } } } };
    };
    expect(inSpace.original.reference.fragment.string.raw).toBe(texts.bobOwn);
    expect(inSpace.name).toBe(original.name);
    expect(inSpace.original.reference.classification.specific).toBe(
      original.original.reference.classification.specific,
    );
    expect(inSpace.tags.iterable.map((t) => t.text).sort()).toEqual(original.tags.iterable.map((t) => t.text).sort());
    // The original stays where it was.
    expect((await http(server.baseUrl, 'GET', `/asset/${ids.bobOwn}`, undefined, bearer(bob))).status).toBe(200);

    const platformBefore = (await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, as(bob, 'platform')))
      .json;
    expectError(
      await http(server.baseUrl, 'POST', `/asset/${ids.carolOwn}/copy`, { space: 'platform' }, bearer(carol)),
      403,
      /reader of .+platform/,
    );
    expectError(
      await http(server.baseUrl, 'POST', `/asset/${ids.carolOwn}/copy`, { space: 'lab' }, bearer(carol)),
      404,
      /no space .+lab/,
    );
    expectError(
      await http(server.baseUrl, 'POST', `/asset/${ids.bobOwn}/copy`, { space: 'platform' }, bearer(carol)),
      404,
    );
    expectError(await http(server.baseUrl, 'POST', `/asset/${ids.bobOwn}/copy`, {}, bearer(bob)), 400, /space/);
    expectError(
      await http(server.baseUrl, 'POST', `/asset/${ids.bobOwn}/copy`, { space: '' }, bearer(bob)),
      400,
      /space/,
    );
    expectError(await http(server.baseUrl, 'POST', '/asset/not-an-id/copy', { space: 'platform' }, bearer(bob)), 400);
    expect((await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, as(bob, 'platform'))).json).toEqual(
      platformBefore,
    );

    // A reader of a space may copy out of it into a space they edit (the source is only read).
    const labCopy = await http(
      server.baseUrl,
      'POST',
      `/asset/${ids.platform}/copy`,
      { space: 'lab' },
      as(bob, 'platform'),
    );
    expect(labCopy.status).toBe(201);

    // Audited: the copy in Bob's store names the original; its creation in the space names the copy.
    // (The log is written in batches: read it until the copies' entries are in.)
    let audit: Array<{ action: string; record: string | null; store: string | null; route: string }> = [];
    for (let i = 0; i < 50 && audit.filter((e) => e.route === '/asset/:asset/copy').length < 4; i++) {
      if (i) await new Promise((r) => setTimeout(r, 200));
      const out = (await trove(server, ['audit', '--json', '--user', 'bob', '--since', '1h'])).stdout.trim();
      audit = out.split('\n').map((line) => JSON.parse(line) as (typeof audit)[number]);
    }
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'copy', record: ids.bobOwn, route: '/asset/:asset/copy' }),
        expect.objectContaining({
          action: 'create',
          record: asset.id,
          route: '/asset/:asset/copy',
          store: expect.stringMatching(/^spaces\//),
        }),
      ]),
    );
  });
});

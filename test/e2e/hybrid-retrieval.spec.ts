import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FakeEmbeddings, startFakeEmbeddings } from './support/fake-embeddings';
import { http, editText } from './support/http';
import { TestServer, startTestServer } from './support/server';

/**
 * Issue 49 item 3: a configured embedding model makes retrieval hybrid. Black-box over a real
 * port, with an OpenAI-compatible fake embedding server whose vectors come from a small concept
 * table ("automobile" is near "car"): memories and snippets are embedded in the background after
 * they are saved, their vectors are searched over the whole store and fused with the lexical
 * ranking (so a record sharing no word with the query is found: through the official MCP SDK's
 * ask_pieces_ltm, HTTP memory search, snippet search and relevance), a provider failure never fails
 * a request and is retried, a deleted record leaves the index, a restart with another model embeds
 * everything again (and with the same model nothing), and without a model nothing is ever embedded.
 * SQLite and PostgreSQL.
 */
jest.setTimeout(60_000);

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const idOf = (saved: string): string => /\(id ([0-9a-f-]{36})\)/.exec(saved)![1];

/** Polls `check` until it holds (or fails with what it last saw). */
async function eventually<T>(
  what: string,
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: T;
  for (;;) {
    last = await read();
    if (check(last)) return last;
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Memories and snippets whose words the queries below never use. */
const CAR = { title: 'Weekend errand', summary: 'Took the car to the garage: new tyres and the brakes looked at.' };
const KITTEN = {
  name: 'adoption form',
  content: 'def register_kitten(owner, name):\n    return shelter.add(owner=owner, pet=name)\n',
};
const INVOICE = { title: 'Quarter close', summary: 'The invoice export for the accountant is due on Friday.' };

/** One Trove with the fake as its embedding model, and an MCP client of it. */
async function connect(server: TestServer): Promise<Client> {
  const res = await http(server.baseUrl, 'GET', '/model_context_protocol/schema_versions');
  const client = new Client({ name: 'trove-e2e-hybrid', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(res.json.iterable[1].entry_endpoint)));
  return client;
}

function tools(server: TestServer, client: Client) {
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError === true).toBe(false);
    return textOf(result);
  };
  const post = (path: string, body?: unknown) => http(server.baseUrl, 'POST', path, body);
  return {
    call,
    remember: async (title: string, summary: string) =>
      idOf(await call('create_pieces_memory', { summary_description: title, summary })),
    /** The memory ids ask_pieces_ltm's Sources name. */
    askMemories: async (question: string) =>
      [
        ...(await call('ask_pieces_ltm', { question, chat_llm: 'claude-sonnet-4' })).matchAll(
          /trove:\/\/memories\/([0-9a-f-]{36})/g,
        ),
      ].map((m) => m[1]),
    searchMemories: async (query: string): Promise<string[]> => {
      const res = await post('/workstream_summaries/search', { engines: { iterable: [{ query }] } });
      expect(res.status).toBe(200);
      return res.json.iterable.map((h: { identifier: string }) => h.identifier);
    },
    searchSnippets: async (query: string): Promise<string[]> => {
      const res = await http(
        server.baseUrl,
        'GET',
        `/assets/search?query=${encodeURIComponent(query)}&transferables=false`,
      );
      expect(res.status).toBe(200);
      return res.json.iterable.map((h: { identifier: string }) => h.identifier);
    },
    relevance: async (query: string): Promise<string[]> => {
      const res = await post('/qgpt/relevance', { query, options: { database: true } });
      expect(res.status).toBe(200);
      return res.json.relevant.iterable.map((r: { asset?: { id: string } }) => r.asset?.id).filter(Boolean);
    },
    createSnippet: async (name: string, raw: string): Promise<string> => {
      const res = await post('/assets/create', {
        type: 'SEEDED_ASSET',
        asset: { format: { fragment: { string: { raw } } }, metadata: { name } },
      });
      expect(res.status).toBe(200);
      return res.json.id;
    },
    vectors: async (model?: string): Promise<Array<{ kind: string; record_id: string; model: string }>> =>
      server.sql(
        `SELECT kind, record_id, model FROM search_model_vectors${model ? ` WHERE model = '${model}'` : ''} ORDER BY kind, record_id`,
      ),
  };
}

describe('hybrid retrieval with a configured embedding model', () => {
  const MODEL = 'openai:concepts-a';
  let fake: FakeEmbeddings;
  let server: TestServer;
  let client: Client;
  let t: ReturnType<typeof tools>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    fake = await startFakeEmbeddings();
    server = await startTestServer({ TROVE_OPENAI_URL: fake.openaiUrl, TROVE_EMBEDDING_MODEL: MODEL });
    client = await connect(server);
    t = tools(server, client);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await fake?.close();
  });

  it('embeds a saved memory in the background: the save answers before the model does', async () => {
    fake.delayMs = 1_500;
    const started = Date.now();
    ids.car = await t.remember(CAR.title, CAR.summary);
    const saved = Date.now();
    expect(saved - started).toBeLessThan(fake.delayMs);
    const request = await eventually(
      'the embedding request of the memory',
      async () =>
        fake.requests.find((r) => r.input.some((text) => text.includes('garage')) && r.answered !== undefined),
      (r) => r !== undefined,
    );
    expect(request!.answered!).toBeGreaterThan(saved);
    await eventually(
      'its vector',
      () => t.vectors(MODEL),
      (rows) => rows.some((r) => r.kind === 'memory' && r.record_id === ids.car),
    );
    fake.delayMs = 0;
  });

  it('finds a memory that shares no word with the question, through ask_pieces_ltm (MCP SDK) and HTTP memory search', async () => {
    ids.invoice = await t.remember(INVOICE.title, INVOICE.summary);
    await eventually(
      'the second vector',
      () => t.vectors(MODEL),
      (rows) => rows.some((r) => r.record_id === ids.invoice),
    );
    // "automobile servicing" has no word of the car memory: only the vector index finds it.
    expect(await t.searchMemories('automobile servicing')).toEqual([ids.car]);
    expect((await t.askMemories('when was the automobile serviced?'))[0]).toBe(ids.car);
    expect((await t.searchMemories('billing deadline'))[0]).toBe(ids.invoice);
    expect((await t.askMemories('What billing deadline is coming up?'))[0]).toBe(ids.invoice);
    // The words still count: a lexical match is found as before.
    expect((await t.searchMemories('tyres'))[0]).toBe(ids.car);
  });

  it('finds a snippet that shares no word with the query, through search and relevance', async () => {
    ids.kitten = await t.createSnippet(KITTEN.name, KITTEN.content);
    await eventually(
      'the snippet vector',
      () => t.vectors(MODEL),
      (rows) => rows.some((r) => r.kind === 'asset' && r.record_id === ids.kitten),
    );
    expect(await t.searchSnippets('feline')).toContain(ids.kitten);
    expect(await t.relevance('which feline is there')).toContain(ids.kitten);
  });

  it('keeps answering while the model fails, and embeds what waited once it is back', async () => {
    fake.failing = true;
    const failedBefore = fake.requests.filter((r) => r.status === 500).length;
    ids.rain = await t.remember('Trip planning', 'Pack an umbrella: heavy rain is forecast for the hike.');
    await eventually(
      'a failed embedding request',
      async () => fake.requests.filter((r) => r.status === 500).length,
      (n) => n > failedBefore,
    );
    // Searches answer (the query cannot be embedded: lexical only), nothing fails.
    expect(await t.searchMemories('umbrella')).toEqual([ids.rain]);
    expect(await t.searchMemories('precipitation')).toEqual([]);
    expect((await t.askMemories('umbrella for the hike?'))[0]).toBe(ids.rain);
    // A query not embedded before (an embedded one is remembered) is searched lexically.
    expect(await t.searchSnippets('tomcat')).not.toContain(ids.kitten);
    fake.failing = false;
    await eventually(
      'the vector after the model came back',
      () => t.vectors(MODEL),
      (rows) => rows.some((r) => r.record_id === ids.rain),
    );
    expect(await t.searchMemories('precipitation')).toEqual([ids.rain]);
  });

  it('removes the vectors of deleted records from the index', async () => {
    const doomed = await t.remember('Music night', 'Bring the guitar and the song sheets.');
    await eventually(
      'its vector',
      () => t.vectors(MODEL),
      (rows) => rows.some((r) => r.record_id === doomed),
    );
    expect(await t.searchMemories('melody')).toEqual([doomed]);
    expect((await http(server.baseUrl, 'POST', `/workstream_summaries/${doomed}/delete`)).status).toBe(204);
    const snippet = await t.createSnippet('sea chart', 'def tide_table(port):\n    return ocean.tides(port)\n');
    await eventually(
      'its vector',
      () => t.vectors(MODEL),
      (rows) => rows.some((r) => r.record_id === snippet),
    );
    expect(await t.searchSnippets('maritime')).toContain(snippet);
    expect((await http(server.baseUrl, 'POST', `/assets/${snippet}/delete`)).status).toBe(200);
    await eventually(
      'the vectors gone',
      () => t.vectors(),
      (rows) => !rows.some((r) => r.record_id === doomed || r.record_id === snippet),
    );
    expect(await t.searchMemories('melody')).toEqual([]);
    expect(await t.searchSnippets('maritime')).not.toContain(snippet);
  });

  it('embeds a snippet again when its text changes', async () => {
    const hashOf = async () =>
      (
        await server.sql<{ content_hash: string }>(
          `SELECT content_hash FROM search_model_vectors WHERE record_id = '${ids.kitten}'`,
        )
      )[0]?.content_hash;
    const before = await hashOf();
    const res = await editText(server.baseUrl, ids.kitten, 'def strum(chords):\n    return guitar.play(chords)\n');
    expect(res.status).toBe(200);
    await eventually('the new vector', hashOf, (hash) => hash !== undefined && hash !== before);
    expect(await t.searchSnippets('melody')).toContain(ids.kitten);
    expect(await t.searchSnippets('feline')).not.toContain(ids.kitten);
  });

  it('resumes after a restart: what lost its vector is embedded again, the rest is not', async () => {
    await server.sql(`DELETE FROM search_model_vectors WHERE record_id = '${ids.car}'`);
    const before = fake.requests.length;
    await server.restart();
    await eventually(
      'the car memory embedded again',
      () => t.vectors(MODEL),
      (rows) => rows.some((r) => r.record_id === ids.car),
    );
    const embedded = fake.requests.slice(before).flatMap((r) => r.input);
    expect(embedded).toHaveLength(1);
    expect(embedded[0]).toContain('garage');
    await client.close();
    client = await connect(server);
    t = tools(server, client);
    expect((await t.askMemories('when was the automobile serviced?'))[0]).toBe(ids.car);
  });

  it('embeds every record again under another model, and reads with that model', async () => {
    const other = await startTestServer(
      { TROVE_OPENAI_URL: fake.openaiUrl, TROVE_EMBEDDING_MODEL: 'openai:concepts-b' },
      { shareWith: server },
    );
    try {
      const live = (await t.vectors(MODEL)).length;
      expect(live).toBe(4); // car, invoice, rain memories and the kitten snippet
      await eventually(
        'every record under the new model',
        () => t.vectors('openai:concepts-b'),
        (rows) => rows.length === live,
      );
      // Each record once, in batches (not one request per record).
      const texts = fake.textsFor('concepts-b').filter((text) => !text.startsWith('when') && text.length > 20);
      expect(texts).toHaveLength(live);
      const o = tools(other, client);
      expect(await o.searchMemories('automobile servicing')).toEqual([ids.car]);
      // The first model's vectors are left as they were.
      expect(await t.vectors(MODEL)).toHaveLength(live);
    } finally {
      await other.close();
    }
  });
});

describe('hybrid retrieval on two instances of one store', () => {
  const MODEL = 'openai:concepts-a';
  let fake: FakeEmbeddings;
  let first: TestServer;
  let second: TestServer;
  let client: Client;

  beforeAll(async () => {
    fake = await startFakeEmbeddings();
    first = await startTestServer({ TROVE_OPENAI_URL: fake.openaiUrl, TROVE_EMBEDDING_MODEL: MODEL });
    second = await startTestServer(
      { TROVE_OPENAI_URL: fake.openaiUrl, TROVE_EMBEDDING_MODEL: MODEL },
      { shareWith: first },
    );
    client = await connect(first);
  });
  afterAll(async () => {
    await client?.close();
    await second?.close();
    await first?.close();
    await fake?.close();
  });

  it('finds on one instance what the other embedded', async () => {
    const on = { first: tools(first, client), second: tools(second, client) };
    // The second instance's index is in memory before the memory exists.
    expect(await on.second.searchMemories('automobile servicing')).toEqual([]);
    const car = await on.first.remember(CAR.title, CAR.summary);
    await eventually(
      'its vector',
      () => on.first.vectors(MODEL),
      (rows) => rows.some((r) => r.record_id === car),
    );
    expect(await on.first.searchMemories('automobile servicing')).toEqual([car]);
    await eventually(
      'found on the second instance',
      () => on.second.searchMemories('automobile servicing'),
      (found) => found[0] === car,
      15_000,
    );
    // Embedded once, by the instance that saved it.
    expect(fake.textsFor('concepts-a').filter((text) => text.includes('garage'))).toHaveLength(1);
  });
});

describe('without an embedding model', () => {
  let fake: FakeEmbeddings;
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    fake = await startFakeEmbeddings();
    // The OpenAI-compatible provider is configured (chat could use it), no embedding model is.
    server = await startTestServer({ TROVE_OPENAI_URL: fake.openaiUrl });
    client = await connect(server);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await fake?.close();
  });

  it('searches lexically as before and never calls an embedding model', async () => {
    const t = tools(server, client);
    const car = await t.remember(CAR.title, CAR.summary);
    const kitten = await t.createSnippet(KITTEN.name, KITTEN.content);
    expect(await t.searchMemories('tyres')).toEqual([car]);
    expect(await t.searchMemories('automobile servicing')).toEqual([]);
    expect(await t.askMemories('when was the automobile serviced?')).not.toContain(car);
    expect(await t.searchSnippets('feline')).not.toContain(kitten);
    await t.relevance('which feline is there');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fake.requests).toEqual([]);
    expect(await t.vectors()).toEqual([]);
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WorkstreamSummariesApi } from '@pieces.app/pieces-os-client';
import { expectError, http } from './support/http';
import { useTestServer } from './support/server';

/**
 * Agent memory that recalls (issue 49), black-box through the official MCP SDK (Streamable HTTP)
 * and HTTP: depth (`limit` of ask_pieces_ltm, search_snippets and memory search), time (a memory
 * keeps the time it is about; a question naming a time prefers memories near it), no duplicates
 * (the same text from the same client is one memory, also saved concurrently), one order (the
 * quoted passages and the Sources are one list with one score each). SQLite and PostgreSQL.
 */
const DAY = 86_400_000;

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** An answer of ask_pieces_ltm cut into its quotes (heading, source line, body) and its Sources. */
function parseAnswer(text: string) {
  const [body, rest = ''] = text.split('\n**Sources**\n');
  const quotes = [
    ...body.matchAll(/^### (\d+)\. (.+)\n_(.+), score ([\d.e-]+)_\n\n([\s\S]*?)(?=\n\n### \d+\. |\n*$)/gm),
  ].map((m) => ({
    n: Number(m[1]),
    name: m[2],
    where: m[3],
    score: Number(m[4]),
    body: m[5],
  }));
  const sources = [...rest.split('\n\n')[0].matchAll(/^(\d+)\. (.+) \((.+), score ([\d.e-]+)\)$/gm)].map((m) => ({
    n: Number(m[1]),
    title: m[2],
    where: m[3],
    score: Number(m[4]),
  }));
  return { quotes, sources };
}

const idOf = (saved: string): string => /\(id ([0-9a-f-]{36})\)/.exec(saved)![1];

describe('agent memory that recalls', () => {
  const server = useTestServer();
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, text: textOf(result) };
  };
  const remember = async (title: string, summary: string, extra: Record<string, unknown> = {}) => {
    const saved = await call('create_pieces_memory', { summary_description: title, summary, ...extra });
    expect(saved.isError).toBe(false);
    return idOf(saved.text);
  };
  const ask = async (question: string, extra: Record<string, unknown> = {}) => {
    const answer = await call('ask_pieces_ltm', { question, chat_llm: 'claude-sonnet-4', ...extra });
    expect(answer.isError).toBe(false);
    return { text: answer.text, ...parseAnswer(answer.text) };
  };
  const memoryIds = (sources: Array<{ where: string }>) =>
    sources.flatMap((s) => /trove:\/\/memories\/([0-9a-f-]{36})/.exec(s.where)?.[1] ?? []);

  beforeAll(async () => {
    const res = await http(server.baseUrl, 'GET', '/model_context_protocol/schema_versions');
    client = new Client({ name: 'trove-e2e-recall', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(res.json.iterable[1].entry_endpoint)));
  });
  afterAll(() => client.close());

  describe('depth', () => {
    beforeAll(async () => {
      for (let i = 0; i < 60; i++)
        await remember(`Quokka note ${i}`, `Observation ${i} about the quokka colony on the island, count ${i * 7}.`);
      for (let i = 0; i < 25; i++) {
        const saved = await call('save_snippet', {
          content: `const wombatBurrow${i} = digWombatBurrow(${i});`,
          name: `wombat burrow ${i}`,
        });
        expect(saved.isError).toBe(false);
      }
    });

    it('ask_pieces_ltm answers 8 sources without a limit and as many as its limit asks (1-50)', async () => {
      expect((await ask('What do we know about the quokka colony?')).sources).toHaveLength(8);
      const deep = await ask('What do we know about the quokka colony?', { limit: 30 });
      expect(deep.sources).toHaveLength(30);
      expect(deep.quotes).toHaveLength(30);
      expect(new Set(memoryIds(deep.sources)).size).toBe(30);
      expect((await ask('What do we know about the quokka colony?', { limit: 50 })).sources).toHaveLength(50);
      expect((await ask('What do we know about the quokka colony?', { limit: 1 })).sources).toHaveLength(1);
      for (const limit of [0, 51, 2.5]) {
        const refused = await client
          .callTool({ name: 'ask_pieces_ltm', arguments: { question: 'quokka', chat_llm: 'x', limit } })
          .catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
        expect(refused.isError).toBe(true);
      }
    });

    it('search_snippets returns up to its limit (beyond 20)', async () => {
      const found = await call('search_snippets', { query: 'wombat burrow', limit: 25 });
      expect(found.text.match(/^\d+\. \*\*/gm)).toHaveLength(25);
      const few = await call('search_snippets', { query: 'wombat burrow', limit: 3 });
      expect(few.text.match(/^\d+\. \*\*/gm)).toHaveLength(3);
    });

    it('memory search over HTTP honours ?limit (1-1000), 100 at most without it', async () => {
      const search = (query: string, limit?: string) =>
        http(server.baseUrl, 'POST', `/workstream_summaries/search${limit ? `?limit=${limit}` : ''}`, {
          engines: { iterable: [{ query }] },
        });
      expect((await search('quokka')).json.iterable).toHaveLength(60);
      expect((await search('quokka', '5')).json.iterable).toHaveLength(5);
      const sdk = await new WorkstreamSummariesApi(server.sdk).searchWorkstreamSummaries({
        searchInput: { engines: { iterable: [{ query: 'quokka' }] } },
      });
      expect(sdk.iterable).toHaveLength(60);
      for (const bad of ['0', '1001', 'x', '-1']) expectError(await search('quokka', bad), 400, /limit/);
    });
  });

  describe('time', () => {
    const now = Date.now();
    const iso = (t: number) => new Date(t).toISOString();
    // The May before this month (this year's when it is past, else last year's).
    const today = new Date(now);
    const lastMayYear = today.getUTCMonth() > 4 ? today.getUTCFullYear() : today.getUTCFullYear() - 1;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      ids.yesterday = await remember(
        'Capybara feeding',
        'Fed the capybara herd with fresh melons and noted their weights.',
        { time: iso(now - DAY) },
      );
      ids.twoWeeks = await remember(
        'Capybara feeding (earlier)',
        'Fed the capybara herd with pumpkins and noted their weights.',
        {
          time: iso(now - 14 * DAY),
        },
      );
      ids.lastMay = await remember(
        'Capybara feeding in spring',
        'Fed the capybara herd with lettuce and noted their weights.',
        {
          time: `${lastMayYear}-05-15T10:00:00Z`,
        },
      );
      ids.y2023 = await remember(
        'Capybara feeding long ago',
        'Fed the capybara herd with carrots and noted their weights.',
        { time: '2023-08-02' },
      );
      ids.now = await remember('Capybara feeding today', 'Fed the capybara herd with apples and noted their weights.');
    });

    it.each([
      ['yesterday', 'What did we feed the capybara herd yesterday?'],
      ['twoWeeks', 'What did we feed the capybara herd two weeks ago?'],
      ['lastMay', 'What did we feed the capybara herd last May?'],
      ['y2023', 'What did we feed the capybara herd in 2023?'],
    ])(
      "a question naming a time (%s) prefers the memory about it, and shows each memory's time",
      async (which, question) => {
        const answer = await ask(question);
        expect(memoryIds(answer.sources)[0]).toBe(ids[which]);
        for (const source of answer.sources) expect(source.where).toMatch(/^\d{4}-\d{2}-\d{2}, trove:\/\/memories\//);
        expect(answer.quotes[0].where).toMatch(/about \d{4}-\d{2}-\d{2}$/);
      },
    );

    it('keeps the time a client gives (MCP time, HTTP ranges) and shows it as the range of the summary; its creation otherwise', async () => {
      const read = await http(server.baseUrl, 'GET', `/workstream_summary/${ids.y2023}`);
      expect(read.json.ranges.iterable[0].reference.from.value).toBe('2023-08-02T00:00:00.000Z');
      const plain = await http(server.baseUrl, 'GET', `/workstream_summary/${ids.now}`);
      expect(plain.json.ranges.iterable[0].reference.from.value).toBe(plain.json.created.value);
      const range = {
        id: 'r1',
        reference: {
          id: 'r1',
          created: { value: iso(now) },
          updated: { value: iso(now) },
          from: { value: '2024-02-29T12:00:00.000Z' },
        },
      };
      const created = await http(server.baseUrl, 'POST', '/workstream_summaries/create', {
        name: 'Leap day deploy',
        model: {
          id: '7a0e5c1e-5d6b-4c51-9a3e-70b0e5000010',
          version: '1',
          created: { value: iso(now) },
          name: 'm',
          cloud: false,
          type: 'UNKNOWN',
          usage: 'UNKNOWN',
        },
        annotations: [{ type: 'SUMMARY', text: 'Deployed the ocelot service on the leap day.' }],
        ranges: { iterable: [range] },
      });
      expect(created.status).toBe(200);
      expect(created.json.ranges.iterable[0].reference.from.value).toBe('2024-02-29T12:00:00.000Z');
      const answer = await ask('When did we deploy the ocelot service?');
      expect(answer.sources[0].where).toMatch(/^2024-02-29, trove:\/\/memories\//);
      const bad = await call('create_pieces_memory', {
        summary_description: 'Bad time',
        summary: 'x',
        time: 'not a date',
      });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/about must be a date/);
    });

    it('a question that names only a time lists the memories about it', async () => {
      const answer = await ask('What happened yesterday?');
      expect(memoryIds(answer.sources)).toContain(ids.yesterday);
    });

    it('memory search over HTTP prefers the memory about the time its query names; its scores stay best first', async () => {
      const search = async (query: string) => {
        const res = await http(server.baseUrl, 'POST', '/workstream_summaries/search?limit=10', {
          engines: { iterable: [{ query }] },
        });
        expect(res.status).toBe(200);
        const hits: Array<{ identifier: string; similarity: number }> = res.json.iterable;
        for (let i = 1; i < hits.length; i++) expect(hits[i].similarity).toBeLessThanOrEqual(hits[i - 1].similarity);
        return hits.map((h) => h.identifier);
      };
      expect((await search('capybara herd last May'))[0]).toBe(ids.lastMay);
      expect((await search('capybara herd in 2023'))[0]).toBe(ids.y2023);
      expect((await search('capybara herd yesterday'))[0]).toBe(ids.yesterday);
      // The words alone: every capybara memory, by its words (the time words are not searched for).
      expect((await search('capybara herd')).length).toBe(5);
      // A query of time words alone is searched as it is (nothing says "2023").
      expect(await search('in 2023')).not.toContain(ids.lastMay);
    });

    it('a day named without its year is the latest that has begun (not the nearest, which can be ahead)', async () => {
      // 300 days ago: its day of the year is 65 days ahead, so the nearest one is next year's.
      const day = new Date(now - 300 * DAY);
      const named = `${day.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' })} ${day.getUTCDate()}`;
      const id = await remember('Okapi feeding', 'Fed the okapi pair with acacia leaves and noted their weights.', {
        time: iso(day.getTime()),
      });
      await remember('Okapi feeding again', 'Fed the okapi pair with willow leaves and noted their weights.', {
        time: iso(now - 3 * DAY),
      });
      const answer = await ask(`What did we feed the okapi pair on ${named}?`);
      expect(memoryIds(answer.sources)[0]).toBe(id);
      const res = await http(server.baseUrl, 'POST', '/workstream_summaries/search', {
        engines: { iterable: [{ query: `okapi pair on ${named}` }] },
      });
      expect(res.json.iterable[0].identifier).toBe(id);
    });
  });

  describe('duplicates', () => {
    it('saving the same memory again keeps one and answers its id (MCP and HTTP), also when saved concurrently', async () => {
      const first = await remember('Tapir enclosure', 'Rebuilt the tapir enclosure fence with oak posts.', {
        connected_client: 'Cursor',
      });
      expect(
        await remember('Tapir enclosure again', 'Rebuilt the tapir enclosure fence with oak posts.', {
          connected_client: 'Cursor',
        }),
      ).toBe(first);
      const count = async (text: string) =>
        Number(
          (
            await server.sql<{ n: number | string }>(
              `SELECT COUNT(*) AS n FROM workstream_summaries WHERE text = '${text}'`,
            )
          )[0].n,
        );
      expect(await count('Rebuilt the tapir enclosure fence with oak posts.')).toBe(1);
      // Another client's memory of the same text is its own.
      expect(
        await remember('Tapir enclosure', 'Rebuilt the tapir enclosure fence with oak posts.', {
          connected_client: 'Claude Code',
        }),
      ).not.toBe(first);

      // The same words about two times (the client says when) are two memories; about the same time, one.
      const may = await remember('Zebra count', 'Counted the zebras: all present.', { time: '2025-05-01T10:00:00Z' });
      expect(
        await remember('Zebra count', 'Counted the zebras: all present.', { time: '2025-06-01T10:00:00Z' }),
      ).not.toBe(may);
      expect(
        await remember('Zebra count', 'Counted the zebras: all present.', { time: '2025-05-01T10:00:00.000Z' }),
      ).toBe(may);

      const text = 'Moved the okapi feeding to the morning shift.';
      const concurrent = await Promise.all(Array.from({ length: 6 }, (_, i) => remember(`Okapi ${i}`, text)));
      expect(new Set(concurrent).size).toBe(1);
      expect(await count(text)).toBe(1);

      const seed = (t: string) => ({
        name: 'Via HTTP',
        model: {
          id: '7a0e5c1e-5d6b-4c51-9a3e-70b0e5000011',
          version: '1',
          created: { value: new Date().toISOString() },
          name: 'm',
          cloud: false,
          type: 'UNKNOWN',
          usage: 'UNKNOWN',
        },
        annotations: [{ type: 'SUMMARY', text: t }],
      });
      const http1 = await Promise.all(
        Array.from({ length: 4 }, () =>
          http(server.baseUrl, 'POST', '/workstream_summaries/create', seed('Serval tracking collars replaced.')),
        ),
      );
      expect(new Set(http1.map((r) => r.json.id)).size).toBe(1);
      expect(await count('Serval tracking collars replaced.')).toBe(1);
      // Deleted, it can be saved again (a new memory).
      expect((await http(server.baseUrl, 'POST', `/workstream_summaries/${http1[0].json.id}/delete`)).status).toBe(204);
      const again = await http(
        server.baseUrl,
        'POST',
        '/workstream_summaries/create',
        seed('Serval tracking collars replaced.'),
      );
      expect(again.status).toBe(200);
      expect(again.json.id).not.toBe(http1[0].json.id);
    });

    it('ask_pieces_ltm never quotes two copies of one text', async () => {
      const text = 'The fennec fox den needs a deeper sand layer.';
      await remember('Fennec den', text, { connected_client: 'Cursor' });
      await remember('Fennec den', text, { connected_client: 'Zed' });
      const answer = await ask('What does the fennec fox den need?', { limit: 20 });
      expect(answer.quotes.filter((q) => q.body.includes('deeper sand layer'))).toHaveLength(1);
    });
  });

  describe('one order', () => {
    it('the quoted passages and the Sources are one ranked list with one score each; a memory is quoted under its name once', async () => {
      await remember(
        'Meerkat lookout rota',
        'The meerkat lookout rota changes every Monday; Ana takes the first shift.',
      );
      await remember('Meerkat diet', 'Meerkats get insects twice a day; the lookout rota does not affect feeding.');
      const answer = await ask('Who takes the first meerkat lookout shift?', { limit: 10 });
      expect(answer.quotes.length).toBeGreaterThan(1);
      expect(answer.quotes.map((q) => q.n)).toEqual(answer.sources.map((s) => s.n));
      expect(answer.quotes.map((q) => q.score)).toEqual(answer.sources.map((s) => s.score));
      const scores = answer.sources.map((s) => s.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      expect(answer.quotes[0].name).toBe('Meerkat lookout rota');
      expect(answer.sources[0].title).toBe('memory “Meerkat lookout rota”');
      // The text, not the name again as its first line.
      expect(answer.quotes[0].body.split('\n')[0]).toBe(
        '> The meerkat lookout rota changes every Monday; Ana takes the first shift.',
      );
      expect(answer.text.split('Meerkat lookout rota').length - 1).toBe(2); // the heading and the source
    });

    it('a snippet saved without a name is found and quoted by its content, not its auto-name and the same line again', async () => {
      const content = 'aardvark termite survey: counted 42 mounds along the east fence\nnext survey in spring';
      const saved = await call('save_snippet', { content, language: 'txt' });
      expect(saved.isError).toBe(false);
      const answer = await ask('How many mounds did the aardvark termite survey count?');
      const quote = answer.quotes.find((q) => q.where.startsWith('snippet'));
      expect(quote).toBeDefined();
      expect(quote!.body.split('counted 42 mounds').length - 1).toBe(1);
      expect(quote!.body.split('\n')[0]).toMatch(/aardvark termite survey: counted 42 mounds/);
    });
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ConversationsApi, ModelContextProtocolApi } from '@pieces.app/pieces-os-client';
import { expectError, http } from './support/http';
import { TestServer, startTestServer, useTestServer } from './support/server';

/**
 * The MCP endpoint with the official MCP TypeScript SDK client, over both transports: the SSE
 * transport at Pieces' paths (what `pieces mcp` connects to, found as the CLI finds it: the
 * first entry of GET /model_context_protocol/schema_versions) and Streamable HTTP.
 */
type Kind = 'sse' | 'http';
const KINDS: Kind[] = ['sse', 'http'];
const TABLES = ['assets', 'workstream_summaries', 'asset_workstream_summaries', 'conversations', 'stream_events'];

async function endpoints(
  server: TestServer,
  headers: Record<string, string> = {},
): Promise<{ sse: string; http: string }> {
  const res = await http(server.baseUrl, 'GET', '/model_context_protocol/schema_versions', undefined, headers);
  expect(res.status).toBe(200);
  const body = res.json as { iterable: Array<{ version: string; entry_endpoint: string }> };
  return { sse: body.iterable[0].entry_endpoint, http: body.iterable[1].entry_endpoint };
}

/** A connected MCP client; `postTo` sends the SSE session's POSTs to another instance (a load balancer's doing). */
async function connect(
  server: TestServer,
  kind: Kind,
  options: { headers?: Record<string, string>; postTo?: TestServer } = {},
): Promise<Client> {
  const headers = options.headers ?? {};
  const urls = await endpoints(server, headers);
  let transport: Transport;
  if (kind === 'sse') {
    const withHeaders = (url: string | URL, init?: RequestInit) => {
      const merged = new Headers(init?.headers);
      for (const [name, value] of Object.entries(headers)) merged.set(name, value);
      return fetch(url, { ...init, headers: merged });
    };
    transport = new SSEClientTransport(new URL(urls.sse), {
      eventSourceInit: { fetch: withHeaders },
      fetch: options.postTo
        ? (url, init) => withHeaders(String(url).replace(server.baseUrl, options.postTo!.baseUrl), init)
        : withHeaders,
    });
  } else {
    transport = new StreamableHTTPClientTransport(new URL(urls.http), { requestInit: { headers } });
  }
  const client = new Client({ name: 'trove-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('MCP', () => {
  const server = useTestServer();
  const clients: Client[] = [];
  const open = async (kind: Kind, options?: Parameters<typeof connect>[2]) => {
    const client = await connect(server, kind, options);
    clients.push(client);
    return client;
  };
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  });

  it('is discovered as the Pieces CLI discovers it: the SSE endpoint first, absolute, then Streamable HTTP', async () => {
    const versions = await new ModelContextProtocolApi(server.sdk).modelContextProtocolSchemaVersions();
    expect(versions.iterable.map((v) => v.version)).toEqual(['2024-11-05', '2025-03-26']);
    expect(versions.iterable[0].entryEndpoint).toBe(`${server.baseUrl}/model_context_protocol/2024-11-05/sse`);
    expect(versions.iterable[1].entryEndpoint).toBe(`${server.baseUrl}/model_context_protocol/2025-03-26/mcp`);
    expectError(await http(server.baseUrl, 'GET', '/model_context_protocol/1999-01-01/sse'), 404, /schema_versions/);
  });

  it.each(KINDS)('lists the tools with the argument schemas Pieces agents use (%s)', async (kind) => {
    const client = await open(kind);
    expect(client.getServerVersion()?.name).toBe('trove');
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(
      [
        'ask_pieces_ltm',
        'create_pieces_memory',
        'get_snippet',
        'list_conversations',
        'read_conversation',
        'save_snippet',
        'search_snippets',
      ].sort(),
    );
    const ask = byName.get('ask_pieces_ltm')!.inputSchema;
    expect([...(ask.required ?? [])].sort()).toEqual(['chat_llm', 'question']);
    expect(Object.keys(ask.properties ?? {}).sort()).toEqual(
      // Pieces' arguments, and Trove's `limit` (optional).
      [
        'application_sources',
        'chat_llm',
        'connected_client',
        'limit',
        'open_files',
        'question',
        'related_questions',
        'topics',
      ].sort(),
    );
    const memory = byName.get('create_pieces_memory')!.inputSchema;
    expect([...(memory.required ?? [])].sort()).toEqual(['summary', 'summary_description']);
    expect(Object.keys(memory.properties ?? {}).sort()).toEqual(
      // Pieces' arguments, and Trove's `time` (optional).
      ['connected_client', 'externalLinks', 'files', 'project', 'summary', 'summary_description', 'time'].sort(),
    );
  });

  it('remembers: a memory created in one session (SSE) is a stored record that ask_pieces_ltm finds in another (Streamable HTTP)', async () => {
    const writer = await open('sse');
    const saved = await writer.callTool({
      name: 'create_pieces_memory',
      arguments: {
        summary_description: 'Moved session tokens to HttpOnly cookies',
        summary:
          'We replaced localStorage session tokens with HttpOnly SameSite=strict cookies in the auth middleware, because an XSS ' +
          'could read localStorage. The refresh endpoint now rotates the cookie.',
        project: 'acme-web',
        files: ['/home/dev/acme-web/src/auth/middleware.ts'],
        externalLinks: ['https://owasp.org/www-community/HttpOnly'],
        connected_client: 'Claude Code',
      },
    });
    expect(saved.isError).toBeFalsy();
    const id = /id ([0-9a-f-]{36})/.exec(textOf(saved))![1];
    const rows = await server.sql<{ name: string; project: string; source: string }>(
      `SELECT name, project, source FROM workstream_summaries WHERE id = '${id}'`,
    );
    expect(rows).toEqual([
      { name: 'Moved session tokens to HttpOnly cookies', project: 'acme-web', source: 'Claude Code' },
    ]);
    const record = await http(server.baseUrl, 'GET', `/workstream_summary/${id}`);
    expect(record.status).toBe(200);
    expect((record.json as { name: string }).name).toBe('Moved session tokens to HttpOnly cookies');

    const reader = await open('http');
    const answer = await reader.callTool({
      name: 'ask_pieces_ltm',
      arguments: {
        question: 'Why did we move the session tokens out of localStorage?',
        chat_llm: 'claude-sonnet-4',
        topics: ['auth', 'cookies'],
      },
    });
    expect(answer.isError).toBeFalsy();
    const text = textOf(answer);
    expect(text).toMatch(/XSS could read localStorage/);
    expect(text).toContain(`trove://memories/${id}`);
    expect(text).toMatch(/offline engine/);

    const resource = await reader.readResource({ uri: `trove://memories/${id}` });
    expect((resource.contents[0] as { text: string }).text).toMatch(/HttpOnly SameSite=strict cookies/);
    const listed = await reader.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(`trove://memories/${id}`);
  });

  it.each(KINDS)('saves, searches and reads snippets, and lists them as resources (%s)', async (kind) => {
    const client = await open(kind);
    const code = `export function debounceCalls(fn: () => void, waitMs: number) {\n  let timer: NodeJS.Timeout | undefined;\n  return () => {\n    clearTimeout(timer);\n    timer = setTimeout(fn, waitMs);\n  };\n}\n`;
    const saved = await client.callTool({
      name: 'save_snippet',
      arguments: { content: code, tags: ['timing'], links: ['https://example.com/debounce'] },
    });
    expect(saved.isError).toBeFalsy();
    const id = /id ([0-9a-f-]{36})/.exec(textOf(saved))![1];
    const asset = await http(server.baseUrl, 'GET', `/asset/${id}`);
    expect(asset.status).toBe(200);
    const wire = asset.json as { name: string; original: { reference: { classification: { specific: string } } } };
    expect(wire.name).toMatch(/debounce/i); // enriched like any create
    expect(wire.original.reference.classification.specific).toBe('ts');

    const found = textOf(await client.callTool({ name: 'search_snippets', arguments: { query: 'debounseCalls' } }));
    expect(found).toContain(id);
    const read = textOf(await client.callTool({ name: 'get_snippet', arguments: { id } }));
    expect(read).toContain('clearTimeout(timer)');
    expect(read).toContain('https://example.com/debounce');
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(`trove://snippets/${id}`);
    const resource = await client.readResource({ uri: `trove://snippets/${id}` });
    expect((resource.contents[0] as { text: string }).text).toContain('setTimeout(fn, waitMs)');
  });

  it('lists and reads conversations', async () => {
    const conversation = await new ConversationsApi(server.sdk).conversationsCreateSpecificConversation({
      seededConversation: { type: 'COPILOT', name: 'Tuning the connection pool' },
    });
    const client = await open('http');
    expect(textOf(await client.callTool({ name: 'list_conversations', arguments: {} }))).toContain(conversation.id);
    const read = textOf(await client.callTool({ name: 'read_conversation', arguments: { id: conversation.id } }));
    expect(read).toContain('# Tuning the connection pool');
  });

  it.each(KINDS)('answers bad arguments and unknown ids with MCP errors and stores nothing (%s)', async (kind) => {
    const client = await open(kind);
    const before = await server.counts(TABLES);
    const bad: Array<{ name: string; arguments: Record<string, unknown> }> = [
      { name: 'ask_pieces_ltm', arguments: { question: 'no model named' } },
      { name: 'ask_pieces_ltm', arguments: { question: '   ', chat_llm: 'x' } },
      { name: 'create_pieces_memory', arguments: { summary: 'no title' } },
      {
        name: 'create_pieces_memory',
        arguments: { summary_description: 't', summary: 's', externalLinks: ['javascript:alert(1)'] },
      },
      { name: 'create_pieces_memory', arguments: { summary_description: 't', summary: 'nul \u0000 inside' } },
      { name: 'create_pieces_memory', arguments: { summary_description: 12, summary: 's' } },
      { name: 'save_snippet', arguments: { content: 'x', language: 'klingon' } },
      { name: 'save_snippet', arguments: { content: 'x', links: ['ftp://example.com'] } },
      { name: 'get_snippet', arguments: { id: 'not-a-uuid' } },
      { name: 'get_snippet', arguments: { id: '00000000-0000-4000-8000-000000000000' } },
      { name: 'read_conversation', arguments: { id: '00000000-0000-4000-8000-000000000000' } },
      { name: 'search_snippets', arguments: { query: 'x', limit: 1000 } },
    ];
    for (const call of bad) {
      const result = await client
        .callTool(call)
        .catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
      expect({ call, isError: result.isError }).toEqual({ call, isError: true });
    }
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} }).then((r) => r.isError)).resolves.toBe(true);
    await expect(client.readResource({ uri: 'trove://snippets/00000000-0000-4000-8000-000000000000' })).rejects.toThrow(
      /not found/,
    );
    expect(await server.counts(TABLES)).toBe(before);
  });

  it('survives fuzzed tool calls: every call is answered, nothing is a server error, failed calls store nothing', async () => {
    const client = await open('sse');
    const values: unknown[] = [
      null,
      true,
      0,
      -1,
      1e308,
      '',
      ' ',
      'x'.repeat(300),
      '\u0000',
      '\ud800',
      '"; DROP TABLE assets; --',
      '*',
      'NEAR(',
      [],
      ['a'],
      {},
      { a: 1 },
    ];
    const keys = [
      'question',
      'chat_llm',
      'topics',
      'open_files',
      'summary',
      'summary_description',
      'project',
      'files',
      'externalLinks',
      'content',
      'query',
      'limit',
      'id',
      'name',
      'tags',
      'links',
      'language',
    ];
    const tools = [
      'ask_pieces_ltm',
      'create_pieces_memory',
      'search_snippets',
      'get_snippet',
      'save_snippet',
      'list_conversations',
      'read_conversation',
    ];
    let seed = 42;
    const pick = <T>(list: T[]): T => list[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % list.length];
    const before = await server.counts(['assets', 'workstream_summaries']);
    let stored = 0;
    for (let i = 0; i < 150; i++) {
      const args: Record<string, unknown> = {};
      for (let k = 0; k < 1 + (i % 4); k++) args[pick(keys)] = pick(values);
      const name = pick(tools);
      const result = await client.callTool({ name, arguments: args });
      expect(textOf(result)).not.toMatch(/internal error/);
      if (!result.isError && (name === 'create_pieces_memory' || name === 'save_snippet')) stored++;
    }
    const after = await server.counts(['assets', 'workstream_summaries']);
    const total = (s: string) => s.split(' ').reduce((n, part) => n + Number(part.split('=')[1]), 0);
    expect(total(after) - total(before)).toBe(stored);
  });

  it('refuses a foreign Origin on both transports, and an unknown or malformed SSE message', async () => {
    const evil = { origin: 'https://evil.example' };
    expectError(
      await http(server.baseUrl, 'GET', '/model_context_protocol/2024-11-05/sse', undefined, evil),
      403,
      /Origin/,
    );
    expectError(
      await http(
        server.baseUrl,
        'POST',
        '/model_context_protocol/2025-03-26/mcp',
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { ...evil, accept: 'application/json, text/event-stream' },
      ),
      403,
      /Origin/,
    );
    const get = await http(server.baseUrl, 'GET', '/model_context_protocol/2025-03-26/mcp', undefined, {
      accept: 'text/event-stream',
    });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']); // stateless: no stream is held open
    const unknown = '/model_context_protocol/2024-11-05/messages?sessionId=00000000-0000-4000-8000-000000000000';
    expectError(
      await http(server.baseUrl, 'POST', unknown, { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      404,
      /unknown or has been closed/,
    );
    expectError(await http(server.baseUrl, 'POST', unknown, { not: 'json-rpc' }), 400, /JSON-RPC/);
    expectError(
      await http(server.baseUrl, 'POST', '/model_context_protocol/2024-11-05/messages?sessionId=x', {
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
      }),
      400,
      /UUID/,
    );
  });

  it('serves the long-term-memory status the CLI gateway checks before running the memory tools', async () => {
    const res = await http(server.baseUrl, 'GET', '/workstream_pattern_engine/processors/vision/status');
    expect(res.status).toBe(200);
    expect((res.json as { vision: { activation: { from: { value: string } } } }).vision.activation.from.value).toMatch(
      /^\d{4}-/,
    );
  });
});

describe('MCP with API keys, session bounds and idle sessions', () => {
  const KEY = 'mcp-test-key-0123456789';
  const server = useTestServer({ TROVE_API_KEYS: KEY, TROVE_MCP_SESSIONS_PER_CLIENT: '2', TROVE_MCP_IDLE_MS: '1500' });
  const auth = { authorization: `Bearer ${KEY}` };

  it.each(KINDS)('needs the API key (%s)', async (kind) => {
    await expect(connect(server, kind)).rejects.toThrow();
    const client = await connect(server, kind, { headers: auth });
    expect((await client.listTools()).tools.length).toBe(7);
    await client.close();
  });

  it('caps the sessions of a client (429) and closes idle ones', async () => {
    // Raw SSE streams: the SDK's EventSource would reconnect on its own when the server closes one.
    const url = `${server.baseUrl}/model_context_protocol/2024-11-05/sse`;
    const opened = async () => {
      const abort = new AbortController();
      const res = await fetch(url, { headers: auth, signal: abort.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toMatch(
        /^event: endpoint\ndata: \/model_context_protocol\/2024-11-05\/messages\?sessionId=[0-9a-f-]{36}/,
      );
      const ended = (async () => {
        while (!(await reader.read()).done);
        return Date.now();
      })().catch(() => Date.now());
      return { abort, ended };
    };
    const a = await opened();
    const b = await opened();
    expectError(
      await http(server.baseUrl, 'GET', '/model_context_protocol/2024-11-05/sse', undefined, auth),
      429,
      /TROVE_MCP_SESSIONS_PER_CLIENT/,
    );
    const start = Date.now();
    const [endA, endB] = await Promise.all([a.ended, b.ended]); // closed by the server after TROVE_MCP_IDLE_MS
    expect(Math.min(endA, endB) - start).toBeLessThan(5000);
    const c = await opened();
    c.abort.abort();
  }, 20_000);
});

describe('MCP on several instances', () => {
  const first = useTestServer();
  let second: TestServer;
  beforeAll(async () => {
    second = await startTestServer({}, { shareWith: first });
  });
  afterAll(async () => {
    await second.close();
  });

  it("relays an SSE session's messages that reach another instance to the one holding the session", async () => {
    const client = await connect(first, 'sse', { postTo: second });
    const saved = await client.callTool({
      name: 'create_pieces_memory',
      arguments: { summary_description: 'Relayed memory', summary: 'Written through the other instance.' },
    });
    expect(saved.isError).toBeFalsy();
    expect((await client.listTools()).tools.length).toBe(7);
    await client.close();
  });

  it('answers Streamable HTTP on any instance (stateless), over the same store', async () => {
    const a = await connect(first, 'http');
    const b = await connect(second, 'http');
    await a.callTool({
      name: 'create_pieces_memory',
      arguments: {
        summary_description: 'Pinned the Postgres driver',
        summary: 'pg 8.23 fixes the pool leak on reconnect.',
      },
    });
    const text = textOf(
      await b.callTool({
        name: 'ask_pieces_ltm',
        arguments: { question: 'Which pg version fixes the pool leak?', chat_llm: 'gpt-5' },
      }),
    );
    expect(text).toMatch(/pool leak on reconnect/);
    await Promise.all([a.close(), b.close()]);
  });
});

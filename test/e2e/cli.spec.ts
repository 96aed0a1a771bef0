import { ConversationsApi, FormatApi, ModelsApi, QGPTApi, SearchApi } from '@pieces.app/pieces-os-client';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError, http, nodeRequest } from './support/http';
import { TestServer, startTestServer } from './support/server';
import { StreamClient } from './support/ws';
import { expectWire } from './support/wire';

/**
 * The official Pieces CLI (pieces-app/cli-agent, Python) as it talks to Trove: each block
 * replays the requests one of its commands sends, captured from real runs of the CLI against
 * Trove, and asserts what the CLI then reads from the answers (see docs/CLIENTS.md).
 */

/** What the CLI's `POST /connect` sends (wrapper/client.py `application`). */
const CONNECT = '{"application": {"name": "PIECES_FOR_DEVELOPERS_CLI", "platform": "LINUX", "version": "5.0.0"}}';

/** `create -c` / `create` (clipboard): the seed the CLI sends, with the application /connect returned. */
const createBody = (application: Record<string, unknown>, raw: string) =>
  JSON.stringify({ asset: { application, format: { fragment: { string: { raw } } } }, type: 'SEEDED_ASSET' });

/** `ask`: the CLI's QGPTStreamInput with nothing attached (copilot.py stream_question). */
const askFrame = (application: string, model: string, query: string, conversation?: string) =>
  JSON.stringify({
    ...(conversation ? { conversation } : {}),
    relevance: { application, model, options: { question: true }, query },
  });

/** `commit`: the prompt of autocommit.py get_commit_message, with the change summary it builds. */
const commitPrompt = (summary: string) =>
  'Act as a git expert developer to generate a concise git commit message **using best git commit message practices** to follow these specifications:\n' +
  '                `Message language: English`,\n' +
  '                `Format of the message: "(task done): small description"`,\n' +
  '                `task done can be one from: "feat,fix,chore,refactor,docs,style,test,perf,ci,build,revert"`,\n' +
  '                `Example of the message: "docs: add new guide on python"`,\n' +
  '                Your response should be: `__The message is: **YOUR COMMIT MESSAGE HERE**__` WITHOUT ADDING ANYTHING ELSE",\n' +
  `                \`Here are the changes summary:\`\n${summary}\`\n` +
  '                The actual code changes provide to you in the seeds,\n' +
  '                `The changed parts is provided in the context where if the line start with "+"  means that line is added or "-" if it is removed';

const FIB =
  'def fib(n):\n    """Return the n-th Fibonacci number."""\n    return n if n < 2 else fib(n-1) + fib(n-2)\n';
const RETRY =
  'def retry(fn, attempts=3):\n    """Call fn until it succeeds, at most attempts times."""\n    for i in range(attempts):\n        try:\n            return fn()\n        except Exception:\n            if i == attempts - 1:\n                raise\n';

/**
 * Every flattened collection in a response (an object whose `iterable` holds objects with ids)
 * carries `indices` with exactly those ids: the CLI's wrapper reads collections through
 * `_from_indices(x.indices)` and crashes on a missing one (`pieces chats` did).
 */
function missingIndices(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => missingIndices(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  const out: string[] = [];
  if (
    Array.isArray(object.iterable) &&
    object.iterable.every((i) => i && typeof i === 'object' && typeof (i as { id?: unknown }).id === 'string')
  ) {
    const ids = (object.iterable as Array<{ id: string }>).map((i) => i.id).sort();
    const indices = object.indices as Record<string, number> | undefined;
    if (!indices || typeof indices !== 'object' || JSON.stringify(Object.keys(indices).sort()) !== JSON.stringify(ids))
      out.push(path);
  }
  for (const [key, child] of Object.entries(object)) out.push(...missingIndices(child, `${path}.${key}`));
  return out;
}

interface Frame {
  conversation: string;
  status: string;
  request?: string;
  question?: { answers: { iterable: Array<{ score: number; text: string }> } };
  statusCode?: number;
  errorMessage?: string;
}

describe('the official Pieces CLI, command by command', () => {
  let server: TestServer;
  let application: Record<string, unknown>;
  /** The models the CLI can use, as its `get_models()` builds them: name -> id of those cloud or downloaded. */
  let usable: Map<string, string>;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** The start of every command (settings.py startup + wrapper/client.py). */
  it('starts: health, version, user, models (its auto-commit and default models), applications, connect', async () => {
    expect((await nodeRequest(`${server.baseUrl}/.well-known/health`, 'HEAD')).status).toBe(200);
    const version = await http(server.baseUrl, 'GET', '/.well-known/version');
    expect(version.text).toMatch(/^12\.\d+\.\d+$/);
    const user = await http(server.baseUrl, 'GET', '/user');
    // check_login: a user must be there; `login` prints its name and email.
    expect(user.json.user).toMatchObject({
      id: expect.any(String),
      name: 'Local user (Trove needs no sign-in)',
      email: '',
    });
    expect(user.json.user.allocation).toBeUndefined();

    const models = (await new ModelsApi(server.sdk).modelsSnapshot()).iterable;
    // config/schemas/model.py: the first model whose unique is gemini-2.0-flash-lite-001, else "Default model not found".
    const autoCommit = models.find((m) => m.unique === 'gemini-2.0-flash-lite-001');
    expect(autoCommit).toBeDefined();
    usable = new Map(models.filter((m) => m.cloud || m.downloaded).map((m) => [m.name, m.id]));
    // ModelConfigSchema validates the stored uuid against get_models(); ask uses "GPT-3.5-turbo Chat Model" until one is picked.
    expect([...usable.values()]).toContain(autoCommit!.id);
    expect(usable.get('GPT-3.5-turbo Chat Model')).toEqual(expect.any(String));

    expectWire('Applications', (await http(server.baseUrl, 'GET', '/applications')).json);
    const context = await http(server.baseUrl, 'POST', '/connect', CONNECT);
    expect(context.status).toBe(200);
    application = context.json.application;
    expect(application).toMatchObject({ name: 'PIECES_FOR_DEVELOPERS_CLI', platform: 'LINUX', version: '5.0.0' });
  });

  describe('create, list', () => {
    it('create -c saves stdin as a material that list then shows', async () => {
      const created = await http(
        server.baseUrl,
        'POST',
        '/assets/create?transferables=false',
        createBody(application, FIB),
      );
      expect(created.status).toBe(200);
      const ids = (await http(server.baseUrl, 'GET', '/assets/identifiers')).json.iterable.map(
        (i: { id: string }) => i.id,
      );
      expect(ids).toContain(created.json.id);
      const asset = (await http(server.baseUrl, 'GET', `/asset/${created.json.id}`)).json;
      // raw_content: preview.base.reference.fragment.string.raw, else original.reference...
      expect(asset.original.reference.fragment.string.raw).toBe(FIB);
      expect(asset.original.reference.classification.specific).toBe('py');
      await http(server.baseUrl, 'POST', '/assets/create?transferables=false', createBody(application, RETRY));
    });
  });

  describe('search (fuzzy, --mode fts, --mode ncs) and tag search', () => {
    const DEBOUNCE =
      'function debounce(fn, waitMs) {\n  let timer;\n  return (...args) => {\n    clearTimeout(timer);\n    timer = setTimeout(() => fn(...args), waitMs);\n  };\n}\n';
    const PAGINATE = 'SELECT id, title FROM posts\nORDER BY created_at DESC\nLIMIT 20 OFFSET 40;\n';
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      for (const [key, raw] of Object.entries({ debounce: DEBOUNCE, paginate: PAGINATE })) {
        ids[key] = (
          await http(server.baseUrl, 'POST', '/assets/create?transferables=false', createBody(application, raw))
        ).json.id;
      }
    });

    /** BasicAsset.search: exact identifiers first, then the others; each then read with GET /asset/{id}. */
    const listed = async (path: string) => {
      const res = await http(server.baseUrl, 'GET', path);
      expect(res.status).toBe(200);
      expectWire('SearchedAssets', res.json);
      const items = res.json.iterable as Array<{ exact: boolean; identifier: string; score: number }>;
      for (const item of items)
        expect((await http(server.baseUrl, 'GET', `/asset/${item.identifier}`)).status).toBe(200);
      expect(res.json.exact).toBe(items.filter((i) => i.exact).length);
      return [...items.filter((i) => i.exact), ...items.filter((i) => !i.exact)].map((i) => i.identifier);
    };

    it('--mode fts finds whole words and identifier parts exactly, and no typo', async () => {
      expect((await listed('/search/full_text?query=clearTimeout'))[0]).toBe(ids.debounce);
      expect((await listed('/search/full_text?query=clear%20timeout'))[0]).toBe(ids.debounce);
      expect(await listed('/search/full_text?query=debounse')).toEqual([]);
      // The fuzzy default finds the typo.
      expect(
        (await http(server.baseUrl, 'GET', '/assets/search?query=debounse&transferables=false')).json.iterable.map(
          (i: { identifier: string }) => i.identifier,
        ),
      ).toContain(ids.debounce);
      const sdk = await new SearchApi(server.sdk).fullTextSearch({ query: 'OFFSET' });
      expect(sdk.iterable[0].identifier).toBe(ids.paginate);
    });

    it('--mode ncs finds code from a description of what it does', async () => {
      expect(
        (await listed('/search/neural_code?query=wait%20before%20calling%20fn%20again%20with%20a%20timer'))[0],
      ).toBe(ids.debounce);
      expect((await listed('/search/neural_code?query=newest%20posts%20ordered%20by%20creation%20date'))[0]).toBe(
        ids.paginate,
      );
      const sdk = await new SearchApi(server.sdk).neuralCodeSearch({ query: 'debounce a function' });
      expect(sdk.iterable[0]).toMatchObject({ identifier: ids.debounce, exact: false });
      expect(sdk.iterable[0].score).toBeGreaterThan(0);
      expect(await listed('/search/neural_code?query=kubernetes%20helm%20chart')).toEqual([]);
    });

    it('finds a material by an identifier typed with one typo, in every mode that corrects (as the real CLI sent them)', async () => {
      const parse =
        'def parse_http_response(raw, strict=False):\n    header, _, body = raw.partition("\\r\\n\\r\\n")\n' +
        '    status = int(header.split(" ")[1])\n    return {"status": status, "body": body}\n';
      const created = (
        await http(server.baseUrl, 'POST', '/assets/create?transferables=false', createBody(application, parse))
      ).json;
      // `pieces list` shows the name: what it defines and what that does.
      expect(created.name).toBe('parse_http_response: parses HTTP response (Python function)');
      expect((await listed('/assets/search?query=parse_http_respnose&transferables=false'))[0]).toBe(created.id);
      expect((await listed('/search/neural_code?query=parse_http_respnose'))[0]).toBe(created.id);
      expect((await listed('/search/neural_code?query=debunce'))[0]).toBe(ids.debounce);
      expect((await listed('/search/neural_code?query=parse%20the%20status%20of%20an%20http%20response'))[0]).toBe(
        created.id,
      );
      // The question `pieces ask` sent with the typo (on ws /qgpt/stream, replayed under 'ask'), over relevance: the snippet quoted.
      const relevance = await http(server.baseUrl, 'POST', '/qgpt/relevance', {
        query: 'how do I parse the status of an http respnose',
        options: { question: true },
      });
      expect(relevance.status).toBe(200);
      expect(relevance.json.relevant.iterable[0].asset.id).toBe(created.id);
      expect(relevance.json.answer.answers.iterable[0].text).toContain('def parse_http_response');
    });

    it('a deleted material is found by none of them', async () => {
      const id = (
        await http(
          server.baseUrl,
          'POST',
          '/assets/create?transferables=false',
          createBody(application, 'zebrafish habitat notes\n'),
        )
      ).json.id;
      expect(await listed('/search/full_text?query=zebrafish')).toEqual([id]);
      await http(server.baseUrl, 'POST', `/assets/${id}/delete`);
      expect(await listed('/search/full_text?query=zebrafish')).toEqual([]);
      expect(await listed('/search/neural_code?query=zebrafish%20habitat')).toEqual([]);
    });

    it('tag search: the assets with the tags, those with the most first', async () => {
      const tagged = (text: string, tags: string[]) =>
        http(server.baseUrl, 'POST', '/assets/create', {
          type: 'SEEDED_ASSET',
          asset: {
            format: { fragment: { string: { raw: text } } },
            metadata: { tags: tags.map((t) => ({ text: t })) },
          },
        });
      const both = (await tagged('SELECT * FROM t LIMIT 10;', ['sql', 'pagination'])).json.id;
      const one = (await tagged('SELECT count(*) FROM t;', ['SQL'])).json.id;
      const out = await new SearchApi(server.sdk).tagBasedSearch({
        seededAssetTags: { iterable: [{ text: 'SQL' }, { text: 'Pagination' }] },
      });
      // The SQL snippet saved without tags carries the 'sql' tag Trove gave it.
      expect(out.iterable[0].identifier).toBe(both);
      expect(
        out.iterable
          .slice(1)
          .map((i) => i.identifier)
          .sort(),
      ).toEqual([one, ids.paginate].sort());
      expect(out.iterable.map((i) => [i.match, i.exact])).toEqual([
        ['TAGS', true],
        ['TAGS', false],
        ['TAGS', false],
      ]);
      const raw = await http(server.baseUrl, 'POST', '/search/tag_based', {
        iterable: [{ text: 'sql', category: 'UNKNOWN', mechanism: 'MANUAL' }],
      });
      expect(raw.json.iterable.map((i: { identifier: string }) => i.identifier).sort()).toEqual(
        [both, one, ids.paginate].sort(),
      );
    });

    it('bad input is a 400 that changes nothing', async () => {
      const before = await server.counts(['assets', 'stream_events']);
      expectError(await http(server.baseUrl, 'GET', '/search/full_text'), 400, /query/);
      expectError(await http(server.baseUrl, 'GET', '/search/neural_code?query=%20'), 400, /query/);
      expectError(await http(server.baseUrl, 'GET', `/search/full_text?query=${'x'.repeat(1001)}`), 400, /1000/);
      expectError(await http(server.baseUrl, 'GET', '/search/full_text?query=a&query=b'), 400, /once/);
      expectError(await http(server.baseUrl, 'GET', '/search/full_text?query=a&pseudo=yes'), 400, /pseudo/);
      expectError(await http(server.baseUrl, 'POST', '/search/tag_based'), 400, /iterable/);
      expectError(await http(server.baseUrl, 'POST', '/search/tag_based', { iterable: [] }), 400, /at least one tag/);
      expectError(
        await http(server.baseUrl, 'POST', '/search/tag_based', { iterable: [{ category: 'UNKNOWN' }] }),
        400,
        /text/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/search/tag_based', { iterable: [{ text: 'x' }], colour: 1 }),
        400,
        /colour/,
      );
      expect(await server.counts(['assets', 'stream_events'])).toBe(before);
    });
  });

  describe('ask', () => {
    let socket: StreamClient;
    beforeAll(async () => {
      socket = await StreamClient.open(server.baseUrl, '/qgpt/stream');
    });
    afterAll(() => socket.close());

    /** Sends a frame and collects the frames of its answer, as AskStream.on_message does. */
    const ask = async (frame: string) => {
      const from = socket.frames.length;
      socket.socket.send(frame);
      let end: Frame | undefined;
      while (!end) {
        const f = await socket.next<Frame>(10_000);
        if (['COMPLETED', 'FAILED'].includes(f.status)) end = f;
      }
      const frames = socket.frames.slice(from) as Frame[];
      const text = frames.flatMap((f) => f.question?.answers.iterable.map((a) => a.text) ?? []).join('');
      return { frames, end, text };
    };
    let conversation: string;

    it('with nothing attached searches the whole store, streams the answer and says which engine answered', async () => {
      const { frames, end, text } = await ask(
        askFrame(
          application.id as string,
          usable.get('GPT-3.5-turbo Chat Model')!,
          'how do I compute fibonacci numbers?',
        ),
      );
      expect(end.status).toBe('COMPLETED');
      expect(end.question).toBeUndefined();
      conversation = end.conversation;
      expect(frames.every((f) => f.conversation === conversation)).toBe(true);
      // The passage of the saved snippet, quoted under its source, fenced as Python for the CLI's Markdown view.
      expect(text).toContain('```py\ndef fib(n):');
      expect(text).toMatch(
        /\*Answered by Trove Extractive \(offline\): GPT-3\.5-turbo Chat Model is not served by this Trove server/,
      );
    });

    it('stores the exchange in the conversation, which chats lists', async () => {
      const ids = (await http(server.baseUrl, 'GET', '/conversations/identifiers')).json.iterable.map(
        (c: { id: string }) => c.id,
      );
      expect(ids).toContain(conversation);
      const messages = await new ConversationsApi(server.sdk).conversationsSnapshot({});
      const stored = messages.iterable.find((c) => c.id === conversation)!;
      expect(Object.keys(stored.messages.indices!)).toHaveLength(2);
      const thread = (await http(server.baseUrl, 'GET', `/conversation/${conversation}/messages`)).json;
      expect(thread.iterable.map((m: { role: string }) => m.role)).toEqual(['USER', 'ASSISTANT']);
      expect(thread.iterable[0].fragment.string.raw).toBe('how do I compute fibonacci numbers?');
      expect(thread.iterable[1].fragment.string.raw).toContain('def fib(n):');
    });

    it('a follow-up in the same chat is searched with what the chat is about', async () => {
      const { end, text } = await ask(
        askFrame(
          application.id as string,
          usable.get('GPT-3.5-turbo Chat Model')!,
          'and how do I test it?',
          conversation,
        ),
      );
      expect(end).toMatchObject({ status: 'COMPLETED', conversation });
      expect(text).toContain('def fib(n):');
      const thread = (await http(server.baseUrl, 'GET', `/conversation/${conversation}/messages`)).json;
      expect(thread.iterable.map((m: { role: string }) => m.role)).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    });

    it('a request for new text gets one sentence naming how to configure a model, and the closest saved snippets', async () => {
      const { end, text } = await ask(
        askFrame(
          application.id as string,
          usable.get('Trove Extractive (offline)')!,
          'write a function that retries a call with exponential backoff',
        ),
      );
      expect(end.status).toBe('COMPLETED');
      expect(
        text.startsWith(
          'Trove Extractive (offline) only quotes passages of your saved snippets and cannot write new text such as this; to get it, configure a language model',
        ),
      ).toBe(true);
      expect(text).toContain('def retry(fn, attempts=3):');
      expect(text).not.toMatch(/exponential backoff/);
    });
  });

  describe('commit', () => {
    const seeds = (files: Array<[string, string]>) => ({
      iterable: files.map(([path, raw]) => ({
        asset: {
          application,
          format: { fragment: { string: { raw } } },
          metadata: { anchors: [{ fullpath: path, type: 'FILE' }] },
        },
        type: 'SEEDED_ASSET',
      })),
    });

    it('gets a commit subject built from the files and symbols the staged diff touches, never the diff quoted back', async () => {
      const models = (await new ModelsApi(server.sdk).modelsSnapshot()).iterable;
      const autoCommit = models.find((m) => m.unique === 'gemini-2.0-flash-lite-001')!;
      const out = await http(server.baseUrl, 'POST', '/qgpt/relevance', {
        application: application.id,
        model: autoCommit.id,
        options: { question: true },
        query: commitPrompt('File created: **README.md**\nFile modified: **calc.py**'),
        seeds: seeds([
          ['/tmp/repo/README.md', '+# Calc\n'],
          ['/tmp/repo/calc.py', '+def multiply(a, b):\n+    """Multiply two numbers."""\n+    return a * b\n'],
        ]),
      });
      expect(out.status).toBe(200);
      expectWire('QGPTRelevanceOutput', out.json);
      const answers = out.json.answer.answers.iterable;
      // clean_commit_message strips "The message is:", "*" and "__"; what is left becomes `git commit -m`.
      expect(answers[0]).toEqual({ score: 1, text: 'feat: add multiply in calc.py' });
      expect(answers[answers.length - 1].text).toMatch(
        /^Answered by Trove Extractive \(offline\): Gemini 2\.0 Flash Lite Chat Model is not served/,
      );
    });

    it('answers the issue-number prompt of `commit -i` without inventing a number', async () => {
      const out = await new QGPTApi(server.sdk).relevance({
        qGPTRelevanceInput: {
          query:
            "Please provide the issue number that is related to the changes, If nothing related write 'None'.\n`Output format WITHOUT ADDING ANYTHING ELSE: \"Issue: **ISSUE NUMBER OR NONE HERE**`\n`Here are the issues:`\n- `Issue_number: 12`\n`Title: Add multiply`",
          options: { question: true },
          seeds: {
            iterable: [
              {
                type: 'SEEDED_ASSET',
                asset: {
                  application: application as never,
                  format: { fragment: { string: { raw: '+def multiply(a, b):\n' } } },
                },
              },
            ],
          },
        },
      });
      // The CLI parses int(text.replace("Issue: ", "")) and treats anything else as no issue.
      expect(out.answer!.answers.iterable[0].text).not.toMatch(/^Issue: \d+$/);
      expect(out.answer!.answers.iterable[0].text).not.toContain('+def multiply');
    });
  });

  describe('modify, edit, delete', () => {
    it('modify: reads the original format and writes its new content back; the asset, search and streams see it', async () => {
      const created = (
        await http(
          server.baseUrl,
          'POST',
          '/assets/create?transferables=false',
          createBody(application, 'def area(r):\n    return 3.14 * r * r\n'),
        )
      ).json;
      const stream = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers');
      await stream.next();
      const asset = (await http(server.baseUrl, 'GET', `/asset/${created.id}`)).json;
      const format = await http(server.baseUrl, 'GET', `/format/${asset.original.id}?transferable=true`);
      expect(format.status).toBe(200);
      expectWire('Format', format.json);
      expect(format.json.fragment.string.raw).toBe('def area(r):\n    return 3.14 * r * r\n');
      // BasicAsset.raw_content setter: the whole Format back, its fragment changed.
      const edited = {
        ...format.json,
        fragment: { string: { raw: 'import math\n\ndef area(r):\n    return math.pi * r ** 2\n' } },
      };
      const updated = await http(
        server.baseUrl,
        'POST',
        '/format/update/value?transferable=false',
        JSON.stringify(edited),
      );
      expect(updated.status).toBe(200);
      expect(updated.json.fragment).toBeUndefined();
      expect(
        (await http(server.baseUrl, 'GET', `/asset/${created.id}`)).json.original.reference.fragment.string.raw,
      ).toContain('math.pi');
      expect((await stream.next()).iterable[0].asset.id).toBe(created.id);
      stream.close();
      const found = (
        await http(server.baseUrl, 'GET', '/assets/search?query=math&transferables=false')
      ).json.iterable.map((a: { identifier: string }) => a.identifier);
      expect(found).toContain(created.id);
      expect(
        (await new FormatApi(server.sdk).formatSnapshot({ format: asset.original.id, transferable: true })).fragment
          ?.string?.raw,
      ).toContain('math.pi');
    });

    it('modify: bad input is a 4xx and changes nothing', async () => {
      const before = await server.counts(['formats', 'stream_events']);
      expectError(await http(server.baseUrl, 'GET', '/format/0a0b0c0d-0000-4000-8000-00000000dead'), 404, /not found/);
      expectError(await http(server.baseUrl, 'GET', '/format/nope'), 400, /UUID/);
      expectError(
        await http(
          server.baseUrl,
          'POST',
          '/format/update/value',
          JSON.stringify({ id: '0a0b0c0d-0000-4000-8000-00000000dead', fragment: { string: { raw: 'x' } } }),
        ),
        404,
        /not found/,
      );
      const id = (await http(server.baseUrl, 'GET', '/assets/identifiers')).json.iterable[0].id;
      const original = (await http(server.baseUrl, 'GET', `/asset/${id}`)).json.original.id;
      expectError(
        await http(server.baseUrl, 'POST', '/format/update/value', JSON.stringify({ id: original })),
        400,
        /fragment\.string\.raw/,
      );
      expect(await server.counts(['formats', 'stream_events'])).toBe(before);
    });

    it('edit -n renames through the round-tripped Asset; delete removes it (410 after)', async () => {
      const id = (
        await http(server.baseUrl, 'POST', '/assets/create?transferables=false', createBody(application, 'SELECT 1;\n'))
      ).json.id;
      const asset = (await http(server.baseUrl, 'GET', `/asset/${id}`)).json;
      const renamed = await http(
        server.baseUrl,
        'POST',
        '/asset/update?transferables=false',
        JSON.stringify({ ...asset, name: 'Probe query' }),
      );
      expect(renamed.json.name).toBe('Probe query');
      const deleted = await http(server.baseUrl, 'POST', `/assets/${id}/delete`);
      expect(deleted.text).toBe(id);
      expect((await http(server.baseUrl, 'GET', `/asset/${id}`)).status).toBe(410);
    });
  });

  describe('chats, chat', () => {
    let conversation: string;
    let other: string;
    beforeAll(async () => {
      // A chat as `ask` leaves it: a question and an answer, then a summary (an annotation).
      const created = await http(server.baseUrl, 'POST', '/conversations/create', '{"name": null, "type": "COPILOT"}');
      conversation = created.json.id;
      other = (
        await http(server.baseUrl, 'POST', '/conversations/create', JSON.stringify({ type: 'COPILOT', name: 'other' }))
      ).json.id;
      const socket = await StreamClient.open(server.baseUrl, '/qgpt/stream');
      for (const chat of [conversation, other]) {
        socket.socket.send(
          askFrame(
            application.id as string,
            usable.get('GPT-3.5-turbo Chat Model')!,
            'how do I compute fibonacci numbers?',
            chat,
          ),
        );
        while (!['COMPLETED', 'FAILED'].includes((await socket.next<Frame>(10_000)).status));
      }
      socket.close();
      expect((await http(server.baseUrl, 'POST', `/conversation/${conversation}/summarize`, {})).status).toBe(200);
    });

    it('chats: a chat created without a name is named after its first question; a named one keeps its name', async () => {
      expect((await http(server.baseUrl, 'GET', `/conversation/${conversation}`)).json.name).toBe(
        'how do I compute fibonacci numbers?',
      );
      expect((await http(server.baseUrl, 'GET', `/conversation/${other}`)).json.name).toBe('other');
    });

    it('chats: every flattened collection carries indices, and the summary annotation reads back by id', async () => {
      const ids = (await http(server.baseUrl, 'GET', '/conversations/identifiers')).json.iterable.map(
        (c: { id: string }) => c.id,
      );
      for (const id of ids) {
        const chat = (await http(server.baseUrl, 'GET', `/conversation/${id}`)).json;
        expect(missingIndices(chat)).toEqual([]);
      }
      const chat = (await http(server.baseUrl, 'GET', `/conversation/${conversation}`)).json;
      const annotationIds = Object.keys(chat.annotations.indices);
      expect(annotationIds).toHaveLength(1);
      const annotation = await http(server.baseUrl, 'GET', `/annotation/${annotationIds[0]}`);
      expectWire('Annotation', annotation.json);
      expect(annotation.json).toMatchObject({ type: 'SUMMARY', conversation: { id: conversation } });
      expect(annotation.json.text.length).toBeGreaterThan(0);
    });

    it("chat N: reads each message by id in the indices' order; a deleted one is -1 and 410", async () => {
      const chat = (await http(server.baseUrl, 'GET', `/conversation/${conversation}`)).json;
      const ordered = Object.entries(chat.messages.indices as Record<string, number>)
        .sort((a, b) => a[1] - b[1])
        .map(([id]) => id);
      const messages = await Promise.all(
        ordered.map(async (id) => (await http(server.baseUrl, 'GET', `/message/${id}?transferable=true`)).json),
      );
      for (const m of messages) expectWire('ConversationMessage', m);
      expect(messages.map((m) => m.role)).toEqual(['USER', 'ASSISTANT']);
      expect(messages[0].fragment.string.raw).toBe('how do I compute fibonacci numbers?');
      expect(
        (await http(server.baseUrl, 'GET', `/message/${ordered[0]}?transferable=false`)).json.fragment,
      ).toBeUndefined();

      const changed = await http(
        server.baseUrl,
        'POST',
        '/message/update/value?transferable=true',
        JSON.stringify({ ...messages[1], fragment: { string: { raw: 'edited answer' } } }),
      );
      expect(changed.json.fragment.string.raw).toBe('edited answer');
      expect((await http(server.baseUrl, 'POST', `/messages/${ordered[1]}/delete`)).status).toBe(204);
      expect(
        (await http(server.baseUrl, 'GET', `/conversation/${conversation}`)).json.messages.indices[ordered[1]],
      ).toBe(-1);
      expectError(await http(server.baseUrl, 'GET', `/message/${ordered[1]}`), 410, /no longer exists/);
    });

    it('chat rename (by the engine and by name) and delete', async () => {
      // `chat -r`: named after what was asked, not after the quoted answer or its note on which engine answered.
      const renamed = await http(server.baseUrl, 'POST', `/conversation/${conversation}/rename`);
      expect(renamed.json.name).toMatch(/fibonacci/i);
      expect(renamed.json.name).not.toMatch(/Trove|Extractive|Model|Python function/);
      const chat = (await http(server.baseUrl, 'GET', `/conversation/${conversation}`)).json;
      const byName = await http(
        server.baseUrl,
        'POST',
        '/conversation/update?transferables=false',
        JSON.stringify({ ...chat, name: 'Fibonacci chat' }),
      );
      expect(byName.json.name).toBe('Fibonacci chat');
      expect((await http(server.baseUrl, 'POST', `/conversations/${conversation}/delete`)).status).toBe(204);
      expect((await http(server.baseUrl, 'GET', `/conversation/${conversation}`)).status).toBe(410);
    });

    it('bad ids are a 4xx and change nothing', async () => {
      const before = await server.counts(['conversation_messages', 'stream_events']);
      expectError(await http(server.baseUrl, 'GET', '/message/0a0b0c0d-0000-4000-8000-00000000dead'), 404, /not found/);
      expectError(
        await http(server.baseUrl, 'GET', '/annotation/0a0b0c0d-0000-4000-8000-00000000dead'),
        404,
        /not found/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/messages/0a0b0c0d-0000-4000-8000-00000000dead/delete'),
        404,
        /not found/,
      );
      expectError(
        await http(
          server.baseUrl,
          'POST',
          '/message/update/value',
          JSON.stringify({ id: 'x', fragment: { string: { raw: 'y' } } }),
        ),
        400,
        /UUID/,
      );
      expect(await server.counts(['conversation_messages', 'stream_events'])).toBe(before);
    });
  });

  describe('login, logout, open, share (what Trove does not have says so)', () => {
    it('login: the local user is signed in; connecting the Pieces cloud leaves it DISCONNECTED', async () => {
      const user = (await http(server.baseUrl, 'GET', '/user')).json.user;
      const connected = await http(
        server.baseUrl,
        'POST',
        '/allocations/connect',
        JSON.stringify({ ...user, picture: 'https://picsum.photos/200' }),
      );
      expect(connected.status).toBe(200);
      expect(connected.json).toMatchObject({
        id: user.id,
        user: user.id,
        status: { cloud: 'DISCONNECTED' },
        urls: { base: { status: 'DISCONNECTED' }, id: { status: 'DISCONNECTED' } },
      });
      expect((await http(server.baseUrl, 'POST', '/os/sign_in')).json).toMatchObject({ id: user.id, name: user.name });
    });

    it('logout: a 400 saying there is nothing to sign out of', async () => {
      expectError(await http(server.baseUrl, 'POST', '/os/sign_out'), 400, /no accounts/);
      expect((await http(server.baseUrl, 'GET', '/user')).json.user.id).toEqual(expect.any(String));
    });

    it('open -c / -d / -s: each applet is launched on a port of its own, where the web app serves it', async () => {
      const ports = new Set([Number(new URL(server.baseUrl).port)]);
      for (const type of ['COPILOT', 'SAVED_MATERIALS', 'FUTURE_APPLET_MODULE_PLACEHOLDER_A']) {
        const launched = await http(server.baseUrl, 'POST', '/os/applet/launch', JSON.stringify({ type }));
        expect(launched.json).toEqual({
          type,
          port: expect.any(Number),
          handler: expect.objectContaining({ type: 'trove-web' }),
        });
        ports.add(launched.json.port);
        expect((await http(`http://127.0.0.1:${launched.json.port}`, 'GET', '/.well-known/health')).status).toBe(200);
      }
      expect(ports.size).toBe(4);
      expectError(
        await http(server.baseUrl, 'POST', '/os/applet/launch', JSON.stringify({ type: 'NOPE' })),
        400,
        /type/,
      );
    });

    it('share: the user has no Pieces cloud allocation, so the CLI says sharing needs one instead of calling /linkify', async () => {
      expect((await http(server.baseUrl, 'GET', '/user')).json.user.allocation).toBeUndefined();
    });
  });

  describe('mcp setup, mcp status, mcp start (its gateway)', () => {
    it("setup writes the first schema version's endpoint (SSE) into the agent's config; the gateway's checks pass; its SSE session answers", async () => {
      // mcp/utils.py get_mcp_latest_url: the first entry_endpoint.
      const versions = await http(server.baseUrl, 'GET', '/model_context_protocol/schema_versions');
      const url = versions.json.iterable[0].entry_endpoint as string;
      expect(url).toBe(`${server.baseUrl}/model_context_protocol/2024-11-05/sse`);
      // gateway.py _validate_system_status: health, version (12.x), a user, and for the LTM tools ltm.is_enabled
      // (long_term_memory.py: vision.activation is not None).
      expect((await http(server.baseUrl, 'GET', '/.well-known/health')).status).toBe(200);
      expect((await http(server.baseUrl, 'GET', '/.well-known/version')).text).toMatch(/^12\./);
      expect((await http(server.baseUrl, 'GET', '/user')).json.user.id).toEqual(expect.any(String));
      const ltm = await http(server.baseUrl, 'GET', '/workstream_pattern_engine/processors/vision/status');
      expect(ltm.json.vision.activation).toEqual({
        from: { value: expect.any(String), readable: expect.any(String) },
        continuous: true,
      });

      // mcp.client.sse.sse_client: GET the URL, read the endpoint event, join it with the URL (same origin
      // required), POST initialize there (202), read the answer on the stream.
      const abort = new AbortController();
      const stream = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = stream.body!.getReader();
      let buffered = '';
      const nextEvent = async (): Promise<{ event: string; data: string }> => {
        while (!buffered.includes('\n\n')) buffered += new TextDecoder().decode((await reader.read()).value);
        const [block, ...rest] = buffered.split('\n\n');
        buffered = rest.join('\n\n');
        return { event: /^event: (.*)$/m.exec(block)![1], data: /^data: (.*)$/m.exec(block)![1] };
      };
      const endpoint = await nextEvent();
      expect(endpoint.event).toBe('endpoint');
      const messages = new URL(endpoint.data, url);
      expect(messages.origin).toBe(new URL(url).origin);
      const initialize = {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2024-11-05',
          capabilities: {},
          clientInfo: { name: 'pieces-stdio-mcp', version: '1.0' },
        },
      };
      const accepted = await http(server.baseUrl, 'POST', messages.pathname + messages.search, initialize);
      expect([accepted.status, accepted.text]).toEqual([202, 'Accepted']);
      const answer = await nextEvent();
      expect(answer.event).toBe('message');
      expect(JSON.parse(answer.data)).toMatchObject({
        id: 0,
        result: { protocolVersion: '2024-11-05', serverInfo: { name: 'trove' } },
      });
      abort.abort();
    });
  });

  describe('ask -f (files), on a workstation: a fresh install reads files under the home directory', () => {
    let home: string;
    let local: TestServer;
    beforeAll(async () => {
      home = mkdtempSync(join(tmpdir(), 'trove-cli-home-'));
      mkdirSync(join(home, 'proj'));
      mkdirSync(join(home, '.ssh'));
      writeFileSync(join(home, 'proj', 'retry.py'), RETRY);
      writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY attempts\n');
      local = await startTestServer({ HOME: home });
    });
    afterAll(async () => {
      await local.close();
      rmSync(home, { recursive: true, force: true });
    });

    it('anchors the file (once per path), links it to the chat, and answers from it', async () => {
      const path = join(home, 'proj', 'retry.py');
      // BasicAnchor.from_raw_content -> create (the CLI's cache of anchors is empty in every new process).
      const first = await http(
        local.baseUrl,
        'POST',
        '/anchors/create?transferables=false',
        JSON.stringify({ fullpath: path, type: 'FILE' }),
      );
      const again = await http(
        local.baseUrl,
        'POST',
        '/anchors/create?transferables=false',
        JSON.stringify({ fullpath: path, type: 'FILE' }),
      );
      expect(first.status).toBe(200);
      expectWire('Anchor', first.json);
      expect(again.json.id).toBe(first.json.id);
      // BasicAnchor.fullpath: [p.reference.fullpath for p in anchor.points.iterable]
      expect(first.json.points.iterable.map((p: { reference: { fullpath: string } }) => p.reference.fullpath)).toEqual([
        path,
      ]);
      expect((await http(local.baseUrl, 'GET', `/anchor/${first.json.id}`)).json).toEqual(first.json);

      const chat = (await http(local.baseUrl, 'POST', '/conversations/create', '{"type": "COPILOT"}')).json.id;
      expect(
        (await http(local.baseUrl, 'POST', `/conversation/${chat}/anchors/associate/${first.json.id}`)).status,
      ).toBe(204);
      const linked = (await http(local.baseUrl, 'GET', `/conversation/${chat}`)).json;
      expect(linked.anchors.indices).toEqual({ [first.json.id]: 0 });
      expect(missingIndices(linked)).toEqual([]);

      // The question with the anchor as a FlattenedAnchors (what the CLI's QGPTRelevanceInput types it as).
      const socket = await StreamClient.open(local.baseUrl, '/qgpt/stream');
      socket.socket.send(
        JSON.stringify({
          conversation: chat,
          relevance: {
            anchors: { iterable: [{ id: first.json.id }] },
            options: { question: true },
            query: 'how many attempts does retry make?',
          },
        }),
      );
      let text = '';
      for (;;) {
        const f = await socket.next<Frame>(10_000);
        text += f.question?.answers.iterable.map((a) => a.text).join('') ?? '';
        if (f.status !== 'IN-PROGRESS') {
          expect(f).toMatchObject({ status: 'COMPLETED', conversation: chat });
          break;
        }
      }
      socket.close();
      expect(text).toContain(`\`${path}\``);
      expect(text).toContain('for i in range(attempts):');
      // The chat the CLI created without a name is named after its first question (`pieces chats` lists it so).
      expect((await http(local.baseUrl, 'GET', `/conversation/${chat}`)).json.name).toBe(
        'how many attempts does retry make?',
      );
    });

    it('never reads the top-level hidden directories of the home directory, and refuses unknown anchors', async () => {
      const key = (
        await http(
          local.baseUrl,
          'POST',
          '/anchors/create',
          JSON.stringify({ fullpath: join(home, '.ssh', 'id_ed25519'), type: 'FILE' }),
        )
      ).json.id;
      expectError(
        await http(
          local.baseUrl,
          'POST',
          '/qgpt/relevance',
          JSON.stringify({ query: 'attempts', anchors: { iterable: [{ id: key }] } }),
        ),
        404,
        /cannot be read: .*hidden directories/,
      );
      expectError(
        await http(
          local.baseUrl,
          'POST',
          '/qgpt/relevance',
          JSON.stringify({
            query: 'attempts',
            anchors: { iterable: [{ id: '0a0b0c0d-0000-4000-8000-00000000dead' }] },
          }),
        ),
        404,
        /anchor/,
      );
      expectError(
        await http(
          local.baseUrl,
          'POST',
          '/anchors/create',
          JSON.stringify({ fullpath: join(home, 'x'), type: 'SOCKET' }),
        ),
        400,
        /type/,
      );
      expectError(await http(local.baseUrl, 'GET', '/anchor/0a0b0c0d-0000-4000-8000-00000000dead'), 404, /not found/);
    });
  });
});

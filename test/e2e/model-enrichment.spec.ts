import { loadConfig } from '../../src/common/config/app-config';
import { FakeLlm, OPENAI_KEY, RecordedRequest, startFakeLlm } from './support/fake-llm';
import { http, editText } from './support/http';
import { TestServer, startTestServer, useTestServer } from './support/server';

/**
 * With a language model configured (TROVE_ENRICHMENT_MODEL, default TROVE_DEFAULT_MODEL), a
 * snippet saved without a name, a description or tags gets them from the model after the save
 * answered with the offline ones: the model's answer (strict JSON, checked) replaces only what
 * still shows as Trove generated it, and a failure, a timeout or a garbage answer leaves the
 * offline values. Driven against the fake OpenAI-compatible and Ollama servers.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Tag {
  text: string;
}
interface Annotation {
  id: string;
  type: string;
  text: string;
  mechanism: string;
}
interface Asset {
  id: string;
  name: string;
  tags?: { iterable: Tag[] };
  annotations?: { iterable: Annotation[] };
  formats: { iterable: Array<{ id: string }> };
}

/** A promise the test resolves: the fake model answers once it is opened. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const promptOf = (request: RecordedRequest): string =>
  (request.body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
const isChat = (r: RecordedRequest) => r.path === '/v1/chat/completions' || r.path === '/api/chat';

/** An answer streamed in pieces, as models do. */
const streamed = (text: string): string[] => text.match(/.{1,12}/gs) ?? [];

const json = (value: unknown) => streamed(JSON.stringify(value));

describe('model enrichment: a configured model names, describes and tags snippets after the save', () => {
  let fake: FakeLlm;
  /** What the fake answers, by a word of the snippet in the prompt. */
  const replies = new Map<string, (body: any) => Promise<string[]> | string[]>();
  beforeAll(async () => {
    fake = await startFakeLlm();
    fake.answer = (body) => {
      const prompt = (body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
      const reply = [...replies].find(([marker]) => prompt.includes(marker));
      if (!reply) throw new Error(`no reply for this prompt: ${prompt.slice(0, 200)}`);
      return reply[1](body);
    };
  });
  afterAll(() => fake.close());

  const server = useTestServer(() => ({
    TROVE_OPENAI_URL: fake.openaiUrl,
    TROVE_OPENAI_API_KEY: OPENAI_KEY,
    TROVE_DEFAULT_MODEL: 'openai:gpt-fake-mini',
    TROVE_ENRICHMENT_TIMEOUT_MS: '1500',
  }));

  const get = async (id: string, on: TestServer = server): Promise<Asset> =>
    (await http(on.baseUrl, 'GET', `/asset/${id}`)).json;
  const tagsOf = (asset: Asset) => (asset.tags?.iterable ?? []).map((t) => t.text);
  const descriptionsOf = (asset: Asset) => (asset.annotations?.iterable ?? []).filter((a) => a.type === 'DESCRIPTION');
  const create = async (raw: string, on: TestServer = server): Promise<Asset> => {
    const res = await http(on.baseUrl, 'POST', '/assets/create?transferables=false', {
      type: 'SEEDED_ASSET',
      asset: { format: { fragment: { string: { raw } } } },
    });
    expect(res.status).toBe(200);
    return res.json;
  };
  /** The chat requests whose prompt holds `marker`, once there are `count` of them. */
  const chats = async (marker: string, count = 1): Promise<RecordedRequest[]> => {
    for (let i = 0; i < 200; i++) {
      const found = fake.requests.filter((r) => isChat(r) && promptOf(r).includes(marker));
      if (found.length >= count) return found;
      await sleep(25);
    }
    throw new Error(`no chat request about ${marker}`);
  };
  /** The asset once `done` holds of it (the model's result arrives after the save). */
  const eventually = async (id: string, done: (asset: Asset) => boolean, on: TestServer = server): Promise<Asset> => {
    let asset = await get(id, on);
    for (let i = 0; i < 200 && !done(asset); i++) {
      await sleep(25);
      asset = await get(id, on);
    }
    expect(done(asset)).toBe(true);
    return asset;
  };
  const search = async (query: string) =>
    (
      await http(server.baseUrl, 'GET', `/assets/search?query=${encodeURIComponent(query)}&transferables=false`)
    ).json.iterable.map((i: { identifier: string }) => i.identifier);

  const FIB =
    'def fib(n):\n    """Return the n-th Fibonacci number."""\n    return n if n < 2 else fib(n-1) + fib(n-2)\n';
  const OFFLINE_FIB = 'fib: return the n-th Fibonacci number (Python function)';

  it('create answers with the offline name at once; the model’s name, description and tags follow and are searchable', async () => {
    const held = gate();
    replies.set('fib(n-1)', async () => {
      await held.opened;
      // As small models answer: inside a markdown fence, a quoted name, two sentences, mixed-case tags.
      return streamed(
        '```json\n' +
          JSON.stringify({
            name: '"Recursive Fibonacci"',
            description: 'Computes Fibonacci numbers recursively. It is slow for large n.',
            tags: ['Recursion', 'math', 'MATH', 'algorithms'],
          }) +
          '\n```',
      );
    });
    const created = await create(FIB);
    expect(created.name).toBe(OFFLINE_FIB);
    const [chat] = await chats('fib(n-1)');
    // The model is still thinking: the offline values stand.
    expect((await get(created.id)).name).toBe(OFFLINE_FIB);
    expect(chat.body.model).toBe('gpt-fake-mini');
    expect(promptOf(chat)).toMatch(/Python snippet/);
    expect(promptOf(chat)).toMatch(/"name".*\n.*"description".*\n.*"tags"/);
    held.open();

    const asset = await eventually(created.id, (a) => a.name === 'Recursive Fibonacci');
    expect(descriptionsOf(asset).map((a) => [a.text, a.mechanism])).toEqual([
      ['Computes Fibonacci numbers recursively.', 'AUTOMATIC'],
    ]);
    expect(tagsOf(asset)).toEqual(['python', 'recursion', 'math', 'algorithms']);
    // Reindexed: found by a word only the model's name has.
    expect(await search('recursive')).toContain(created.id);
    // Nothing left waiting (GET /metrics shows the queue while a model is configured).
    expect((await http(server.baseUrl, 'GET', '/metrics')).text).toMatch(
      /trove_queue_depth\{queue="model_enrichment"\} 0/,
    );
    // Recorded as generated, so that a later edit of the content may replace it.
    const [record] = await server.sql<{ name: string; description: string; tags: string }>(
      `SELECT name, description, tags FROM asset_enrichments WHERE asset_id = '${created.id}'`,
    );
    expect(record).toEqual({
      name: 'Recursive Fibonacci',
      description: 'Computes Fibonacci numbers recursively.',
      tags: JSON.stringify(['python', 'recursion', 'math', 'algorithms']),
    });
  });

  it('a rename while the model is thinking wins; the model fills only what is still generated', async () => {
    const raw = 'def pad_left(s, width):\n    """Pad s on the left to width."""\n    return s.rjust(width)\n';
    const held = gate();
    replies.set('rjust(width)', async () => {
      await held.opened;
      return json({ name: 'Left padding helper', description: 'Pads a string on the left.', tags: ['strings'] });
    });
    const created = await create(raw);
    await chats('rjust(width)');
    const asset = await get(created.id);
    const renamed = await http(
      server.baseUrl,
      'POST',
      '/asset/update?transferables=false',
      JSON.stringify({ ...asset, name: 'My padding' }),
    );
    expect(renamed.status).toBe(200);
    held.open();

    const after = await eventually(created.id, (a) => descriptionsOf(a)[0]?.text === 'Pads a string on the left.');
    expect(after.name).toBe('My padding');
    expect(tagsOf(after)).toEqual(['python', 'strings']);
  });

  it('an edit of the content asks the model again, for the parts still generated only', async () => {
    const first = 'def area_of_circle(r):\n    return 3.14159 * r * r\n';
    replies.set('3.14159 * r * r', () =>
      json({ name: 'Circle area', description: 'Computes the area of a circle.', tags: ['geometry'] }),
    );
    const created = await create(first);
    const asset = await eventually(created.id, (a) => a.name === 'Circle area');
    // The user writes their own description.
    const annotations = { iterable: asset.annotations!.iterable.map((a) => ({ ...a, text: 'Mine: circles.' })) };
    expect(
      (await http(server.baseUrl, 'POST', '/asset/update', JSON.stringify({ ...asset, annotations }))).status,
    ).toBe(200);

    const second = 'def area_of_square(side):\n    return side * side  # square\n';
    replies.set('side * side', () =>
      json({ name: 'Square area', description: 'Computes the area of a square.', tags: ['geometry', 'squares'] }),
    );
    const res = await editText(server.baseUrl, created.id, second);
    expect(res.status).toBe(200);

    const after = await eventually(created.id, (a) => a.name === 'Square area');
    expect(descriptionsOf(after).map((a) => a.text)).toEqual(['Mine: circles.']);
    expect(tagsOf(after)).toEqual(['python', 'geometry', 'squares']);
    // The second prompt asked only for the name and the tags.
    const [again] = await chats('side * side');
    expect(promptOf(again)).not.toMatch(/"description": one sentence/);
    expect(promptOf(again)).toMatch(/"name": a short title/);
  });

  it('a garbage or invalid answer leaves the offline values', async () => {
    const prose = 'def garbage_one(x):\n    return x + 1\n';
    const invalid = 'def garbage_two(x):\n    return x + 2\n';
    replies.set('x + 1', () => streamed('Sure! This snippet adds one to a number. Hope that helps!'));
    replies.set('x + 2', () => json({ name: 'x'.repeat(400), description: 42, tags: 'not-a-list-but-ok,,' }));
    const one = await create(prose);
    const two = await create(invalid);
    await chats('x + 1');
    await chats('x + 2');
    await sleep(500);
    expect(await get(one.id)).toMatchObject({ name: one.name });
    expect(descriptionsOf(await get(one.id)).map((a) => a.text)).toEqual(descriptionsOf(one).map((a) => a.text));
    expect(tagsOf(await get(one.id))).toEqual(tagsOf(one));
    // The second answer's one usable part (its tags) is taken; the name and description stay offline.
    const second = await eventually(two.id, (a) => tagsOf(a).includes('not-a-list-but-ok'));
    expect(second.name).toBe(two.name);
    expect(descriptionsOf(second).map((a) => a.text)).toEqual(descriptionsOf(two).map((a) => a.text));
  });

  it('the prompt never holds a secret of the snippet', async () => {
    const key = 'AKIAZ7Q4XK2PLM9RT3VB';
    const token = 'ghp_R4nd0mT0k3nV4lu3F0rTh1sSp3cXyZ123456';
    const raw = `import boto3\n\nAWS_ACCESS_KEY_ID = "${key}"\nGITHUB_TOKEN = "${token}"\ns3 = boto3.client("s3")  # uploader\n`;
    replies.set('# uploader', () =>
      json({ name: 'S3 client setup', description: 'Creates an S3 client.', tags: ['aws', 's3'] }),
    );
    const created = await create(raw);
    const [chat] = await chats('# uploader');
    const prompt = promptOf(chat);
    expect(prompt).toContain('boto3.client("s3")');
    expect(prompt).not.toContain(key);
    expect(prompt).not.toContain(token);
    expect(prompt).not.toContain('Z7Q4XK2PLM9RT3VB');
    await eventually(created.id, (a) => a.name === 'S3 client setup');
  });

  it('a model error or timeout leaves the offline values, and nothing answers 5xx', async () => {
    const failing = 'def will_fail(y):\n    return y * 7\n';
    const slow = 'def too_slow(y):\n    return y * 9\n';
    replies.set('y * 7', () => {
      throw new Error('the model crashed');
    });
    replies.set('y * 9', async () => {
      await sleep(3_000); // past TROVE_ENRICHMENT_TIMEOUT_MS (1.5 s)
      return json({ name: 'Too late', description: 'Arrives after the timeout.', tags: ['late'] });
    });
    const one = await create(failing);
    const two = await create(slow);
    await chats('y * 7');
    await chats('y * 9');
    await sleep(3_500);
    for (const created of [one, two]) {
      const res = await http(server.baseUrl, 'GET', `/asset/${created.id}`);
      expect(res.status).toBe(200);
      expect(res.json.name).toBe(created.name);
      expect(tagsOf(res.json)).toEqual(tagsOf(created));
      expect(descriptionsOf(res.json).map((a) => a.text)).toEqual(descriptionsOf(created).map((a) => a.text));
    }
    // The provider's 5xx as well.
    fake.fail({ path: '/v1/chat/completions', status: 503 });
    const three = await create('def unavailable(z):\n    return z - 3\n');
    await sleep(500);
    expect((await get(three.id)).name).toBe(three.name);
  });

  it('TROVE_MODEL_ENRICHMENT=off, or no model configured: no chat request, the offline values', async () => {
    const off = await startTestServer({
      TROVE_OPENAI_URL: fake.openaiUrl,
      TROVE_OPENAI_API_KEY: OPENAI_KEY,
      TROVE_DEFAULT_MODEL: 'openai:gpt-fake-mini',
      TROVE_MODEL_ENRICHMENT: 'off',
    });
    const offline = await startTestServer({ TROVE_OPENAI_URL: fake.openaiUrl, TROVE_OPENAI_API_KEY: OPENAI_KEY });
    try {
      replies.set('never_asked', () => json({ name: 'Should not appear', description: 'No.', tags: ['no'] }));
      const a = await create('def never_asked(q):\n    return q\n', off);
      const b = await create('def never_asked_either(q):\n    return q\n', offline);
      await sleep(500);
      expect(fake.requests.filter((r) => isChat(r) && promptOf(r).includes('never_asked'))).toEqual([]);
      // No queue to show either.
      expect((await http(off.baseUrl, 'GET', '/metrics')).text).not.toMatch(/queue="model_enrichment"/);
      expect((await get(a.id, off)).name).toBe(a.name);
      expect((await get(b.id, offline)).name).toBe(b.name);
      expect(a.name).not.toBe('Should not appear');
    } finally {
      await off.close();
      await offline.close();
    }
  });

  it('settings: the enrichment model defaults to the default model; off and offline mean none; bad values stop the start', () => {
    expect(loadConfig({}).enrichmentModel).toBeNull();
    expect(loadConfig({ TROVE_DEFAULT_MODEL: 'llama3.2:1b' }).enrichmentModel).toBe('llama3.2:1b');
    expect(
      loadConfig({ TROVE_DEFAULT_MODEL: 'llama3.2:1b', TROVE_MODEL_ENRICHMENT: 'off' }).enrichmentModel,
    ).toBeNull();
    expect(
      loadConfig({ TROVE_DEFAULT_MODEL: 'llama3.2:1b', TROVE_ENRICHMENT_MODEL: 'offline' }).enrichmentModel,
    ).toBeNull();
    expect(loadConfig({ TROVE_ENRICHMENT_MODEL: 'qwen2.5:0.5b' }).enrichmentModel).toBe('qwen2.5:0.5b');
    expect(loadConfig({}).enrichmentTimeoutMs).toBe(20_000);
    expect(() => loadConfig({ TROVE_MODEL_ENRICHMENT: 'sometimes' })).toThrow(
      /TROVE_MODEL_ENRICHMENT must be on or off/,
    );
    expect(() => loadConfig({ TROVE_ENRICHMENT_MODEL: 'openai:gpt-4o-mini' })).toThrow(
      /TROVE_ENRICHMENT_MODEL names a model of openai but TROVE_OPENAI_URL/,
    );
    expect(() => loadConfig({ TROVE_ENRICHMENT_TIMEOUT_MS: '5' })).toThrow(/TROVE_ENRICHMENT_TIMEOUT_MS/);
  });

  it('TROVE_ENRICHMENT_MODEL picks another model than the default one (here Ollama’s)', async () => {
    const other = await startTestServer({
      TROVE_OLLAMA_URL: fake.ollamaUrl,
      TROVE_ENRICHMENT_MODEL: 'ollama:llama3.2:1b',
    });
    try {
      replies.set('ollama_side', () =>
        json({ name: 'Ollama named this', description: 'Named by Ollama.', tags: ['ollama'] }),
      );
      const created = await create('def ollama_side(v):\n    return v * 2\n', other);
      const [chat] = await chats('ollama_side');
      expect(chat.path).toBe('/api/chat');
      expect(chat.body.model).toBe('llama3.2:1b');
      await eventually(created.id, (a) => a.name === 'Ollama named this', other);
    } finally {
      await other.close();
    }
  });
});

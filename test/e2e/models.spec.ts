import { ModelApi, ModelsApi, QGPTApi } from '@pieces.app/pieces-os-client';
import { loadConfig } from '../../src/common/config/app-config';
import { expectError, http } from './support/http';
import { FakeLlm, OPENAI_KEY, startFakeLlm } from './support/fake-llm';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';

const UNKNOWN = '0a0b0c0d-0000-4000-8000-00000000dead';
const seededModel = (extra: Record<string, unknown> = {}) => ({
  version: '1',
  created: { value: '2024-01-01T00:00:00.000Z', readable: 'Jan 1, 2024' },
  name: 'Reviewer',
  cloud: false,
  type: 'BALANCED',
  usage: 'CODE_CONVERSATION',
  ...extra,
});

describe('models with the offline engine only', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('lists the offline engine as a complete Model, named for what it is', async () => {
    const models = await new ModelsApi(server.sdk).modelsSnapshot();
    const raw = await http(server.baseUrl, 'GET', '/models');
    expectWire('Models', raw.json);
    expect(models.iterable.map((m) => m.unique)).toEqual([
      'trove-extractive',
      'gemini-2.0-flash-lite-001',
      'gpt-3.5-turbo',
      'gpt-4o',
      'o4-mini-2025-04-16',
    ]);
    const offline = raw.json.iterable[0];
    expect(offline).toMatchObject({
      name: 'Trove Extractive (offline)',
      cloud: false,
      downloaded: true,
      loaded: true,
      custom: false,
      usage: 'CODE_CONVERSATION',
      cpu: true,
    });
    expect(offline.description).toMatch(/not a language model/);
  });

  describe('the models the official clients name (client models)', () => {
    it('lists them under the names and uniques the clients select by, usable (downloaded), with ids stable across restarts', async () => {
      const listed = (await http(server.baseUrl, 'GET', '/models')).json.iterable;
      const gemini = listed.find((m: { unique: string }) => m.unique === 'gemini-2.0-flash-lite-001');
      const gpt = listed.find((m: { name: string }) => m.name === 'GPT-3.5-turbo Chat Model');
      expect(gemini).toMatchObject({
        custom: false,
        downloaded: true,
        cloud: false,
        foundation: 'GEMINI_LATEST',
        provider: 'GOOGLE',
        usage: 'CODE_CONVERSATION',
      });
      expect(gpt).toMatchObject({
        unique: 'gpt-3.5-turbo',
        custom: false,
        downloaded: true,
        foundation: 'GPT_3.5',
        provider: 'OPENAI',
      });
      // Honest: the description says the model is not served and what answers in its place.
      expect(gemini.description).toMatch(
        /^Not served here: .*answered by Trove Extractive \(offline\), the configured default model/,
      );
      expect(gemini.description).toMatch(/TROVE_OPENAI_URL/);
      const again = await startTestServer();
      try {
        const ids = (await http(again.baseUrl, 'GET', '/models')).json.iterable.map((m: { id: string }) => m.id);
        expect(ids).toEqual(expect.arrayContaining([gemini.id, gpt.id]));
      } finally {
        await again.close();
      }
      expect((await new ModelApi(server.sdk).modelsSpecificModelSnapshot({ model: gpt.id })).name).toBe(
        'GPT-3.5-turbo Chat Model',
      );
    });

    it.each([
      [
        'its id',
        async () =>
          (await http(server.baseUrl, 'GET', '/models')).json.iterable.find(
            (m: { unique: string }) => m.unique === 'gpt-3.5-turbo',
          ).id,
      ],
      ['its name', async () => 'GPT-3.5-turbo Chat Model'],
      ['its unique', async () => 'gpt-3.5-turbo'],
    ])('a question naming one by %s is answered by the default model, which the answer says', async (_how, ref) => {
      const out = await new QGPTApi(server.sdk).question({
        qGPTQuestionInput: {
          query: 'how do I paginate rows?',
          model: await ref(),
          relevant: { iterable: [{ seed: textSeed('Paginate rows with LIMIT and OFFSET in SQL.') }] },
        },
      });
      expect(out.answers.iterable[0].text).toContain('LIMIT and OFFSET');
      const note = out.answers.iterable[out.answers.iterable.length - 1];
      expect(note).toEqual({
        score: 0,
        text: 'Answered by Trove Extractive (offline): GPT-3.5-turbo Chat Model is not served by this Trove server (GET /models says what runs each model).',
      });
    });

    it('the offline engine named directly adds no note', async () => {
      const out = await new QGPTApi(server.sdk).question({
        qGPTQuestionInput: {
          query: 'how do I paginate rows?',
          model: 'offline',
          relevant: { iterable: [{ seed: textSeed('Paginate rows with LIMIT and OFFSET in SQL.') }] },
        },
      });
      expect(out.answers.iterable.map((a) => a.text).join('\n')).not.toMatch(/Answered by/);
    });
  });

  it('creates a custom model on the offline engine once, then deletes it', async () => {
    const before = await server.counts(['models']);
    const created = await http(
      server.baseUrl,
      'POST',
      '/models/create',
      seededModel({ name: 'Quoter', configuration: { base: 'offline' } }),
    );
    expect(created.status).toBe(200);
    expectWire('Model', created.json);
    expect(created.json.custom).toBe(true);
    const again = await http(
      server.baseUrl,
      'POST',
      '/models/create',
      seededModel({
        name: 'Quoter',
        configuration: { base: 'offline' },
        created: { value: '2025-02-02T00:00:00.000Z', readable: 'x' },
      }),
    );
    expect(again.json.id).toBe(created.json.id);
    const listed = (await http(server.baseUrl, 'GET', '/models')).json.iterable;
    expect(listed.filter((m: { name: string }) => m.name === 'Quoter')).toHaveLength(1);
    await new ModelsApi(server.sdk).modelsDeleteSpecificModel({ model: created.json.id }).catch(() => undefined);
    const res = await http(server.baseUrl, 'POST', `/models/${created.json.id}/delete`);
    expectError(res, 404, /not found/);
    expect(await server.counts(['models'])).toBe(before);
  });

  describe('bad input: a 4xx JSON body and nothing written', () => {
    it.each([
      ['create without body', '/models/create', undefined, 400, /name/],
      ['create naming nothing to build on', '/models/create', seededModel(), 400, /unique/],
      ['create on an unknown model', '/models/create', seededModel({ unique: 'ollama:llama3' }), 400, /not configured/],
      [
        'create with an unknown field',
        '/models/create',
        seededModel({ unique: 'offline', colour: 'red' }),
        400,
        /colour/,
      ],
      ['create with a bad type', '/models/create', seededModel({ unique: 'offline', type: 'HUGE' }), 400, /type/],
      [
        'create with a bad temperature',
        '/models/create',
        seededModel({ configuration: { base: 'offline', temperature: 9 } }),
        400,
        /temperature/,
      ],
      ['delete of the offline engine', 'OFFLINE/delete', undefined, 400, /not a custom model/],
      ['delete of an unknown model', `/models/${UNKNOWN}/delete`, undefined, 404, /not found/],
      ['delete with a model id that is not a UUID', '/models/abc/delete', undefined, 400, /UUID/],
      ['delete cache of the offline engine', 'OFFLINE/delete/cache', undefined, 400, /no downloaded cache/],
      ['delete cache of an unknown model', `/models/${UNKNOWN}/delete/cache`, undefined, 404, /not found/],
      ['delete cache with an unknown field', 'OFFLINE/delete/cache', { x: 1 }, 400, /x/],
    ])('%s', async (_name, path, body, status, message) => {
      const offline = (await http(server.baseUrl, 'GET', '/models')).json.iterable[0].id;
      const before = await server.counts(['models']);
      const res = await http(server.baseUrl, 'POST', path.replace('OFFLINE', `/models/${offline}`), body);
      expectError(res, status, message);
      expect(await server.counts(['models'])).toBe(before);
    });
  });

  it('unload answers 204 with nothing to unload', async () => {
    const res = await http(server.baseUrl, 'POST', '/models/unload');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('unload leaves language detection working (its classifier is data, not a loaded model)', async () => {
    const python = 'def greet(name):\n    for i in range(3):\n        print(f"hello {name} {i}")\n    return None\n';
    expect((await http(server.baseUrl, 'POST', '/models/unload')).status).toBe(204);
    const again = await http(server.baseUrl, 'POST', '/assets/create', textSeed(python));
    expect(again.json.original.reference.classification.specific).toBe('py');
  });

  it('refuses bad model and QGPT settings at boot', () => {
    expect(() => loadConfig({ TROVE_DEFAULT_MODEL: 'ollama:llama3' })).toThrow(/TROVE_OLLAMA_URL/);
    expect(() => loadConfig({ TROVE_OLLAMA_URL: 'ftp://x' })).toThrow(/TROVE_OLLAMA_URL/);
    expect(() => loadConfig({ TROVE_DEFAULT_MODEL: 'llama3.2:1b' })).not.toThrow();
    expect(() => loadConfig({ TROVE_EMBEDDING_MODEL: 'openai:text-embedding-3-small' })).toThrow(/TROVE_OPENAI_URL/);
    expect(() => loadConfig({ TROVE_OPENAI_API_KEY: 'sk-x' })).toThrow(/TROVE_OPENAI_URL/);
    expect(() => loadConfig({ TROVE_QGPT_ROOTS: 'relative/dir' })).toThrow(/TROVE_QGPT_ROOTS/);
    expect(() => loadConfig({ TROVE_GGUF_PATHS: 'models' })).toThrow(/TROVE_GGUF_PATHS/);
    expect(() => loadConfig({ TROVE_QGPT_FILE_LIMIT: '0' })).toThrow(/TROVE_QGPT_FILE_LIMIT/);
  });
});

describe('models and questions through Ollama and an OpenAI-compatible server', () => {
  let fake: FakeLlm;
  let server: TestServer;
  let models: ModelsApi;
  let qgpt: QGPTApi;

  beforeAll(async () => {
    fake = await startFakeLlm();
    server = await startTestServer({
      TROVE_OLLAMA_URL: fake.ollamaUrl,
      TROVE_OPENAI_URL: fake.openaiUrl,
      TROVE_OPENAI_API_KEY: OPENAI_KEY,
    });
    models = new ModelsApi(server.sdk);
    qgpt = new QGPTApi(server.sdk);
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  const byUnique = async (unique: string) =>
    (await http(server.baseUrl, 'GET', '/models')).json.iterable.find(
      (m: { unique: string; custom: boolean }) => m.unique === unique && !m.custom,
    );

  it('lists the offline engine, the Ollama models and the OpenAI-compatible models with complete fields', async () => {
    const raw = await http(server.baseUrl, 'GET', '/models');
    expectWire('Models', raw.json);
    const sdk = await models.modelsSnapshot();
    expect(sdk.iterable.length).toBe(raw.json.iterable.length);
    const uniques = raw.json.iterable.map((m: { unique: string }) => m.unique);
    // Then the local models the clients download through Ollama, not downloaded yet (model-download.spec.ts).
    expect(uniques.slice(0, 9)).toEqual([
      'trove-extractive',
      'gemini-2.0-flash-lite-001',
      'gpt-3.5-turbo',
      'gpt-4o',
      'o4-mini-2025-04-16',
      'llama3.2:1b',
      'nomic-embed-text:latest',
      'gpt-fake-mini',
      'text-embedding-fake',
    ]);
    expect(
      raw.json.iterable.slice(9).every((m: { downloaded: boolean; cloud: boolean }) => !m.downloaded && !m.cloud),
    ).toBe(true);
    expect(uniques).toContain('llama3.2:1b-instruct-q4_K_S');
    const llama = await byUnique('llama3.2:1b');
    expect(llama).toMatchObject({
      cloud: false,
      downloaded: true,
      loaded: true,
      foundation: 'LLAMA_LATEST',
      provider: 'META',
      usage: 'CODE_CONVERSATION',
      quantization: 'Q4_K_M',
      parameters: 1_200_000_000,
    });
    expect(llama.bytes.value).toBe(1_300_000_000);
    expect((await byUnique('nomic-embed-text:latest')).usage).toBe('TEXT_EMBEDDING');
    // The fake OpenAI server is on 127.0.0.1: a local server, not a cloud.
    expect(await byUnique('gpt-fake-mini')).toMatchObject({ cloud: false, downloaded: true });
    // Ids are stable: listing again gives the same ids and timestamps.
    expect((await http(server.baseUrl, 'GET', '/models')).json).toEqual(raw.json);
  });

  it('answers a question through Ollama (streamed NDJSON), sending the snippets as context', async () => {
    const out = await qgpt.question({
      qGPTQuestionInput: {
        query: 'What does the snippet do?',
        model: 'ollama:llama3.2:1b',
        relevant: { iterable: [{ seed: textSeed('function add(a, b) { return a + b; }') }] },
      },
    });
    expectWire('QGPTQuestionOutput', out);
    expect(out.answers.iterable).toEqual([{ score: 1, text: 'Hello from the fake model.' }]);
    const chat = fake.requests.find((r) => r.path === '/api/chat')!;
    expect(chat.body.stream).toBe(true);
    expect(chat.body.model).toBe('llama3.2:1b');
    expect(JSON.stringify(chat.body.messages)).toContain('function add(a, b)');
    expect(chat.body.messages[chat.body.messages.length - 1]).toEqual({
      role: 'user',
      content: 'What does the snippet do?',
    });
  });

  it('answers relevance + question through the OpenAI-compatible server (SSE) with the key, by model id', async () => {
    const gpt = await byUnique('gpt-fake-mini');
    const out = await qgpt.relevance({
      qGPTRelevanceInput: {
        query: 'how to add numbers',
        model: gpt.id,
        seeds: { iterable: [textSeed('Add numbers with the plus operator.')] },
        options: { question: true },
      },
    });
    expect(out.answer!.answers.iterable[0].text).toBe('Hello from the fake model.');
    const chat = fake.requests.find((r) => r.path === '/v1/chat/completions')!;
    expect(chat.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(chat.body.stream).toBe(true);
    expect(JSON.stringify(chat.body.messages)).toContain('plus operator');
  });

  it('reprompt and hints use the chosen model', async () => {
    fake.chunks = ['How do I add two numbers in JavaScript?'];
    try {
      const ts = { value: new Date('2024-01-01T00:00:00.000Z'), readable: 'Jan 1' };
      const re = await qgpt.reprompt({
        qGPTRepromptInput: {
          query: 'and in JS?',
          model: 'openai:gpt-fake-mini',
          conversation: { iterable: [{ role: 'USER', text: 'How do I add numbers?', timestamp: ts }] } as never,
        },
      });
      expect(re.query).toBe('How do I add two numbers in JavaScript?');
      fake.chunks = ['What is a closure?\n', '2. How do modules work?\n'];
      const hints = await qgpt.hints({
        qGPTHintsInput: {
          query: 'x',
          model: 'ollama:llama3.2:1b',
          relevant: { iterable: [{ seed: textSeed('code') }] },
        },
      });
      expect(hints.answers.iterable.map((a) => a.text)).toEqual(['What is a closure?', 'How do modules work?']);
    } finally {
      fake.chunks = ['Hello', ' from', ' the', ' fake', ' model.'];
    }
  });

  it.each([
    ['Ollama', 'ollama:llama3.2:1b', '/api/chat'],
    ['OpenAI-compatible', 'openai:gpt-fake-mini', '/v1/chat/completions'],
  ])("maps %s's 401, 429 (with Retry-After) and 503 to the same statuses", async (_name, model, path) => {
    const ask = () => http(server.baseUrl, 'POST', '/qgpt/question', { query: 'q', model, relevant: { iterable: [] } });
    fake.fail({ path, status: 401 });
    expectError(await ask(), 401, /refused the credentials/);
    fake.fail({ path, status: 429, headers: { 'retry-after': '7' } });
    const limited = await ask();
    expectError(limited, 429, /rate limiting/);
    expect(limited.headers.get('retry-after')).toBe('7');
    fake.fail({ path, status: 503 });
    expectError(await ask(), 503, /overloaded/);
    fake.fail({ path, status: 404, body: JSON.stringify({ error: 'model not found' }) });
    expectError(await ask(), 404, /does not have that model/);
  });

  it('runs a client model on the OpenAI-compatible gateway that serves it, under the same stable id, and says so in the list', async () => {
    const before = await byUnique('gemini-2.0-flash-lite-001');
    expect(before.description).toMatch(/^Not served here/);
    fake.openaiModels.push('gemini-2.0-flash-lite-001');
    try {
      const served = await byUnique('gemini-2.0-flash-lite-001');
      expect(served.id).toBe(before.id);
      expect(served.description).toMatch(
        /served here by the OpenAI-compatible API at .* \(its model gemini-2\.0-flash-lite-001\)\. Listed because it is the Pieces CLI's default auto-commit model/,
      );
      // A gateway on this machine: its models count as downloaded, which the CLI requires to offer a model.
      expect(served).toMatchObject({ cloud: false, downloaded: true, name: 'Gemini 2.0 Flash Lite Chat Model' });
      const out = await qgpt.relevance({
        qGPTRelevanceInput: {
          query: 'what does the fake model say?',
          model: served.id,
          seeds: { iterable: [textSeed('context')] },
          options: { question: true },
        },
      });
      expect(out.answer!.answers.iterable).toEqual([{ score: 1, text: 'Hello from the fake model.' }]);
      const chat = fake.requests.find((r) => r.path === '/v1/chat/completions');
      expect(chat?.body.model).toBe('gemini-2.0-flash-lite-001');
    } finally {
      fake.openaiModels.pop();
    }
    // GPT-3.5 is still not served: a real model (here the default, offline) stands in and says so.
    const gpt = await byUnique('gpt-3.5-turbo');
    expect(gpt.description).toMatch(/^Not served here/);
  });

  it('a provider that is down answers 503 with a clear message, and listing still works', async () => {
    const down = await startTestServer({ TROVE_OLLAMA_URL: 'http://127.0.0.1:9', TROVE_PROVIDER_TIMEOUT_MS: '2000' });
    try {
      const res = await http(down.baseUrl, 'POST', '/qgpt/question', {
        query: 'q',
        model: 'ollama:llama3',
        relevant: { iterable: [] },
      });
      expectError(res, 503, /Ollama at http:\/\/127\.0\.0\.1:9 is not reachable/);
      const listed = await http(down.baseUrl, 'GET', '/models');
      expect(listed.status).toBe(200);
      expect(listed.json.iterable.map((m: { unique: string }) => m.unique)).toEqual([
        'trove-extractive',
        'gemini-2.0-flash-lite-001',
        'gpt-3.5-turbo',
        'gpt-4o',
        'o4-mini-2025-04-16',
      ]);
    } finally {
      await down.close();
    }
  });

  it('listing still works when the default model is on a provider that is down; the client models say it cannot answer', async () => {
    const down = await startTestServer({
      TROVE_OLLAMA_URL: 'http://127.0.0.1:9',
      TROVE_PROVIDER_TIMEOUT_MS: '2000',
      TROVE_DEFAULT_MODEL: 'llama3.2:1b',
    });
    try {
      const listed = await http(down.baseUrl, 'GET', '/models');
      expect(listed.status).toBe(200);
      expect(listed.json.iterable.map((m: { unique: string }) => m.unique)).toEqual([
        'trove-extractive',
        'gemini-2.0-flash-lite-001',
        'gpt-3.5-turbo',
        'gpt-4o',
        'o4-mini-2025-04-16',
      ]);
      const gpt = listed.json.iterable.find((m: { unique: string }) => m.unique === 'gpt-3.5-turbo');
      expect(gpt.description).toMatch(
        /answered by the configured default model \(llama3\.2:1b\), which cannot answer now: /,
      );
      const res = await http(down.baseUrl, 'POST', '/qgpt/question', {
        query: 'q',
        model: gpt.id,
        relevant: { iterable: [] },
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    } finally {
      await down.close();
    }
  });

  it('a wrong OpenAI key is a 401 on question', async () => {
    const wrong = await startTestServer({ TROVE_OPENAI_URL: fake.openaiUrl, TROVE_OPENAI_API_KEY: 'sk-wrong' });
    try {
      const res = await http(wrong.baseUrl, 'POST', '/qgpt/relevance', {
        query: 'q',
        model: 'openai:gpt-fake-mini',
        seeds: { iterable: [textSeed('x')] },
        options: { question: true },
      });
      expectError(res, 401, /refused the credentials/);
    } finally {
      await wrong.close();
    }
  });

  it('creates a custom model with a system prompt and parameters (no duplicates) and uses them', async () => {
    const llama = await byUnique('llama3.2:1b');
    const seed = seededModel({
      name: 'Terse reviewer',
      configuration: { base: llama.id, system: 'Answer in one word.', temperature: 0.1, max_output_tokens: 64 },
    });
    const created = await http(server.baseUrl, 'POST', '/models/create', seed);
    expect(created.status).toBe(200);
    expectWire('Model', created.json);
    expect(created.json).toMatchObject({
      custom: true,
      name: 'Terse reviewer',
      unique: 'llama3.2:1b',
      loaded: true,
      downloaded: true,
    });
    const again = await http(server.baseUrl, 'POST', '/models/create', seed);
    expect(again.json.id).toBe(created.json.id);
    await qgpt.question({
      qGPTQuestionInput: { query: 'Is this fine?', model: created.json.id, relevant: { iterable: [] } },
    });
    const chat = fake.requests.find((r) => r.path === '/api/chat')!;
    expect(chat.body.messages[0]).toEqual({ role: 'system', content: 'Answer in one word.' });
    expect(chat.body.options).toEqual({ temperature: 0.1, num_predict: 64 });
    // A provider model under a name of its own.
    const named = await models.modelsCreateNewModel({
      seededModel: seededModel({
        name: 'My GPT',
        unique: 'gpt-fake-mini',
        created: { value: new Date(), readable: 'now' },
      }) as never,
    });
    expect(named).toMatchObject({ custom: true, unique: 'gpt-fake-mini' });
    // Deleting: custom ones only.
    const gptDelete = await http(server.baseUrl, 'POST', `/models/${(await byUnique('gpt-fake-mini')).id}/delete`);
    expectError(gptDelete, 400, /not a custom model/);
    await new ModelsApi(server.sdk).modelsDeleteSpecificModel({ model: named.id });
    await new ModelsApi(server.sdk).modelsDeleteSpecificModel({ model: created.json.id });
    const left = (await http(server.baseUrl, 'GET', '/models')).json.iterable.filter(
      (m: { custom: boolean }) => m.custom,
    );
    expect(left).toEqual([]);
  });

  it('loads and unloads one model, and reads one model (the SDK ModelApi)', async () => {
    const api = new ModelApi(server.sdk);
    const llama = await byUnique('llama3.2:1b');
    fake.loaded.clear();
    const loaded = await api.modelSpecificModelLoad({ model: llama.id });
    expect(loaded.loaded).toBe(true);
    expect(fake.loaded.has('llama3.2:1b')).toBe(true);
    const unloaded = await api.modelSpecificModelUnload({ model: llama.id });
    expect(unloaded.loaded).toBe(false);
    expect(fake.requests.filter((r) => r.path === '/api/generate').map((r) => r.body.keep_alive)).toEqual([
      undefined,
      0,
    ]);
    const one = await http(server.baseUrl, 'GET', `/model/${llama.id}`);
    expectWire('Model', one.json);
    expect(one.json.id).toBe(llama.id);
    expectError(await http(server.baseUrl, 'GET', `/model/${UNKNOWN}`), 404, /not found/);
    expectError(await http(server.baseUrl, 'POST', `/model/${UNKNOWN}/load`), 404, /not found/);
    fake.loaded.add('llama3.2:1b');
  });

  it('unloads the loaded Ollama models with keep_alive 0', async () => {
    fake.loaded.add('nomic-embed-text:latest');
    await models.unloadModels();
    expect(fake.loaded.size).toBe(0);
    const unloads = fake.requests.filter((r) => r.path === '/api/generate').map((r) => r.body);
    expect(unloads).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ model: 'llama3.2:1b', keep_alive: 0 }),
        expect.objectContaining({ model: 'nomic-embed-text:latest', keep_alive: 0 }),
      ]),
    );
    expect((await byUnique('llama3.2:1b')).loaded).toBe(false);
  });

  it('deletes the cache of an Ollama model (DELETE /api/delete) and refuses it for a cloud/served model', async () => {
    const gpt = await byUnique('gpt-fake-mini');
    expectError(
      await http(server.baseUrl, 'POST', `/models/${gpt.id}/delete/cache`, {}),
      400,
      /OpenAI-compatible server/,
    );
    const embed = await byUnique('nomic-embed-text:latest');
    const out = await new ModelsApi(server.sdk).modelsDeleteSpecificModelCache({
      model: embed.id,
      modelDeleteCacheInput: {},
    });
    expectWire('ModelDeleteCacheOutput', out);
    expect(out.model.id).toBe(embed.id);
    expect(fake.requests.find((r) => r.path === '/api/delete')?.body).toEqual({ model: 'nomic-embed-text:latest' });
    expect(fake.ollamaModels).not.toContain('nomic-embed-text:latest');
    expect(await byUnique('nomic-embed-text:latest')).toBeUndefined();
  });

  it('embeds through both providers (Ollama /api/embed, OpenAI /embeddings with encoding_format float)', async () => {
    const { ModelRegistry } = await import('../../src/modules/models/model-registry');
    const registry = server.app.get(ModelRegistry);
    const ollama = await registry.resolve('ollama:llama3.2:1b');
    expect(await ollama.provider.embed(ollama.unique, ['a', 'b'])).toEqual([
      [0, 0.5, -0.5],
      [1, 0.5, -0.5],
    ]);
    const openai = await registry.resolve('openai:text-embedding-fake');
    expect(await openai.provider.embed(openai.unique, ['a', 'b'])).toEqual([
      [0, 0.25],
      [1, 0.25],
    ]);
    expect(fake.requests.find((r) => r.path === '/v1/embeddings')?.body.encoding_format).toBe('float');
  });

  it('re-ranks relevance passages with the configured embedding model', async () => {
    const embedding = await startTestServer({
      TROVE_OLLAMA_URL: fake.ollamaUrl,
      TROVE_EMBEDDING_MODEL: 'ollama:nomic-embed-text:latest',
    });
    try {
      fake.requests.length = 0;
      const seeds = ['Rotate logs daily with logrotate.', 'Bananas are yellow.', 'Logs rotate when they grow large.'];
      const res = await http(embedding.baseUrl, 'POST', '/qgpt/relevance', {
        query: 'rotate logs',
        seeds: { iterable: seeds.map((t) => textSeed(t)) },
      });
      expect(res.status).toBe(200);
      expectWire('QGPTRelevanceOutput', res.json);
      const embed = fake.requests.find((r) => r.path === '/api/embed')!;
      expect(embed.body.model).toBe('nomic-embed-text:latest');
      expect(embed.body.input[0]).toBe('rotate logs');
      expect(embed.body.input.slice(1).sort()).toEqual([seeds[0], seeds[2]].sort());
      for (const r of res.json.relevant.iterable) expect(r.score).toBeGreaterThan(0);
      // The embedding provider failing is the provider's status on relevance.
      fake.fail({ path: '/api/embed', status: 429, headers: { 'retry-after': '2' } });
      const limited = await http(embedding.baseUrl, 'POST', '/qgpt/relevance', {
        query: 'rotate logs',
        seeds: { iterable: seeds.map((t) => textSeed(t)) },
      });
      expectError(limited, 429, /rate limiting/);
      expect(limited.headers.get('retry-after')).toBe('2');
    } finally {
      await embedding.close();
    }
  });

  it('conversation rename and summarize use the selected default model', async () => {
    const selected = await startTestServer({
      TROVE_OLLAMA_URL: fake.ollamaUrl,
      TROVE_DEFAULT_MODEL: 'ollama:llama3.2:1b',
    });
    try {
      fake.chunks = ['Adding numbers'];
      const created = await http(selected.baseUrl, 'POST', '/conversations/create', {
        type: 'COPILOT',
        name: null,
        messages: [{ role: 'USER', fragment: { string: { raw: 'How do I add numbers?' } } }],
      });
      const renamed = await http(selected.baseUrl, 'POST', `/conversation/${created.json.id}/rename`);
      expect(renamed.status).toBe(200);
      expect(renamed.json.name).toBe('Adding numbers');
      fake.chunks = ['The user asks how to add numbers.'];
      fake.requests.length = 0;
      const summary = await http(selected.baseUrl, 'POST', `/conversation/${created.json.id}/summarize`, {});
      expect(summary.status).toBe(200);
      const asked = fake.requests.find((r) => r.path === '/api/chat')!.body.messages.at(-1).content;
      expect(asked).toMatch(/^Summarize/);
      expect(asked).toContain('How do I add numbers?');
      const conversation = await http(selected.baseUrl, 'GET', `/conversation/${created.json.id}`);
      expect(JSON.stringify(conversation.json.annotations)).toContain('The user asks how to add numbers.');
    } finally {
      fake.chunks = ['Hello', ' from', ' the', ' fake', ' model.'];
      await selected.close();
    }
  });
});

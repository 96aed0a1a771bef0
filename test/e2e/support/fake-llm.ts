import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A stand-in for the external model servers, on 127.0.0.1: it speaks the Ollama REST API
 * (/api/...) and the OpenAI API (/v1/...) closely enough for Trove's real provider code to
 * run against it (NDJSON and SSE streaming, keys, errors, load/unload/delete state).
 */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface Failure {
  /** Path prefix the failure applies to. */
  path: string;
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Fail this many times (default 1). */
  times?: number;
}

export interface FakeLlm {
  url: string;
  ollamaUrl: string;
  openaiUrl: string;
  ollamaModels: string[];
  /** Ids /v1/models lists. */
  openaiModels: string[];
  loaded: Set<string>;
  /** The answer the chat endpoints stream, one chunk each. */
  chunks: string[];
  /** Milliseconds between streamed chunks. */
  delayMs: number;
  /**
   * When set, the chat endpoints (both APIs) stream what it returns for the request's body instead
   * of `chunks`; null: `chunks`. It may wait (a slow model) and may throw (a 500).
   */
  answer: ((body: any) => string[] | Promise<string[]>) | null;
  requests: RecordedRequest[];
  /**
   * What /api/pull can download, by model name: the layers (digest and size) it streams progress
   * for. Pulling anything else streams Ollama's error line. A pulled model joins `ollamaModels`.
   */
  pullable: Record<string, Array<{ digest: string; total: number }>>;
  /** Bytes per progress line of a pull, and milliseconds between lines. */
  pullChunk: number;
  pullDelayMs: number;
  /** Pulls whose client went away before `success` (a cancelled download). */
  pullsAborted: string[];
  fail(failure: Failure): void;
  close(): Promise<void>;
}

export const OPENAI_KEY = 'sk-test-key';

export async function startFakeLlm(): Promise<FakeLlm> {
  const failures: Failure[] = [];
  const fake: FakeLlm = {
    url: '',
    ollamaUrl: '',
    openaiUrl: '',
    ollamaModels: ['llama3.2:1b', 'nomic-embed-text:latest'],
    openaiModels: ['gpt-fake-mini', 'text-embedding-fake'],
    loaded: new Set(['llama3.2:1b']),
    chunks: ['Hello', ' from', ' the', ' fake', ' model.'],
    delayMs: 5,
    answer: null,
    requests: [],
    pullable: {},
    pullChunk: 256 * 1024 * 1024,
    pullDelayMs: 5,
    pullsAborted: [],
    fail: (f) => failures.push({ times: 1, ...f }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const path = (req.url ?? '').split('?')[0];
    const body = raw ? JSON.parse(raw) : undefined;
    fake.requests.push({ method: req.method ?? '', path, headers: req.headers, body });

    const failure = failures.find((f) => path.startsWith(f.path));
    if (failure) {
      if (--failure.times! <= 0) failures.splice(failures.indexOf(failure), 1);
      res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
      res.end(failure.body ?? JSON.stringify({ error: { message: `fake failure ${failure.status}` } }));
      return;
    }

    // Ollama
    if (path === '/api/tags') {
      return json(res, 200, {
        models: fake.ollamaModels.map((name) => ({
          name,
          model: name,
          size: 1_300_000_000,
          details: {
            family: name.includes('embed') ? 'nomic-bert' : 'llama',
            parameter_size: '1.2B',
            quantization_level: 'Q4_K_M',
          },
        })),
      });
    }
    if (path === '/api/ps') return json(res, 200, { models: [...fake.loaded].map((name) => ({ name, model: name })) });
    if (path === '/api/generate') {
      if (!fake.ollamaModels.includes(body.model)) return json(res, 404, { error: `model '${body.model}' not found` });
      if (body.keep_alive === 0) fake.loaded.delete(body.model);
      else fake.loaded.add(body.model);
      return json(res, 200, { model: body.model, response: '', done: true });
    }
    if (path === '/api/delete' && req.method === 'DELETE') {
      if (!fake.ollamaModels.includes(body.model)) return json(res, 404, { error: `model '${body.model}' not found` });
      fake.ollamaModels = fake.ollamaModels.filter((m) => m !== body.model);
      fake.loaded.delete(body.model);
      res.writeHead(200);
      return res.end();
    }
    if (path === '/api/pull' && req.method === 'POST') {
      // As Ollama streams a pull (NDJSON, one line per step): the manifest, each layer's bytes as
      // they arrive, verification, the manifest written, success; or an error line.
      const name: string = body.model ?? body.name;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const line = (event: object) => res.write(JSON.stringify(event) + '\n');
      line({ status: 'pulling manifest' });
      const layers = fake.pullable[name];
      if (!layers) return res.end(JSON.stringify({ error: 'pull model manifest: file does not exist' }) + '\n');
      for (const { digest, total } of layers) {
        for (let completed = 0; ; completed = Math.min(total, completed + fake.pullChunk)) {
          await sleep(fake.pullDelayMs);
          if (res.destroyed) {
            fake.pullsAborted.push(name);
            return;
          }
          line({ status: `pulling ${digest.slice(7, 19)}`, digest, total, ...(completed ? { completed } : {}) });
          if (completed === total) break;
        }
      }
      for (const status of ['verifying sha256 digest', 'writing manifest', 'removing any unused layers'])
        line({ status });
      if (!fake.ollamaModels.includes(name)) fake.ollamaModels.push(name);
      return res.end(JSON.stringify({ status: 'success' }) + '\n');
    }
    if (path === '/api/embed') {
      // Embedding models get letter frequencies (similar texts, similar vectors); others a fixed pattern.
      const letters = (t: string) =>
        Array.from(
          { length: 26 },
          (_, k) => (t.toLowerCase().match(new RegExp(String.fromCharCode(97 + k), 'g')) ?? []).length,
        );
      const vectors = body.input.map((t: string, i: number) =>
        body.model.includes('embed') ? letters(t) : [i, 0.5, -0.5],
      );
      return json(res, 200, { model: body.model, embeddings: vectors });
    }
    if (path === '/api/chat') {
      if (!fake.ollamaModels.includes(body.model)) return json(res, 404, { error: `model '${body.model}' not found` });
      fake.loaded.add(body.model);
      const chunks = fake.answer ? await fake.answer(body) : fake.chunks;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const chunk of chunks) {
        if (res.destroyed) return;
        res.write(
          JSON.stringify({ model: body.model, message: { role: 'assistant', content: chunk }, done: false }) + '\n',
        );
        await sleep(fake.delayMs);
      }
      return res.end(
        JSON.stringify({
          model: body.model,
          message: { role: 'assistant', content: '' },
          done: true,
          done_reason: 'stop',
        }) + '\n',
      );
    }

    // OpenAI
    if (path.startsWith('/v1/')) {
      if (req.headers.authorization !== `Bearer ${OPENAI_KEY}`)
        return json(res, 401, { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } });
      if (path === '/v1/models')
        return json(res, 200, {
          object: 'list',
          data: fake.openaiModels.map((id) => ({ id, object: 'model', owned_by: 'fake' })),
        });
      if (path === '/v1/embeddings') {
        if (body.encoding_format !== 'float')
          return json(res, 400, { error: { message: 'encoding_format must be float' } });
        return json(res, 200, {
          object: 'list',
          data: body.input.map((_: string, index: number) => ({
            object: 'embedding',
            index,
            embedding: [index, 0.25],
          })),
        });
      }
      if (path === '/v1/chat/completions') {
        const chunks = fake.answer ? await fake.answer(body) : fake.chunks;
        if (!body.stream)
          return json(res, 200, { choices: [{ message: { role: 'assistant', content: chunks.join('') } }] });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': keep-alive\n\n');
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant' } }] })}\n\n`);
        for (const chunk of chunks) {
          if (res.destroyed) return;
          res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: chunk } }] })}\n\n`);
          await sleep(fake.delayMs);
        }
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
        return res.end('data: [DONE]\n\n');
      }
    }
    json(res, 404, { error: 'not found' });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) json(res, 500, { error: String(error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.ollamaUrl = fake.url;
  fake.openaiUrl = `${fake.url}/v1`;
  return fake;
}

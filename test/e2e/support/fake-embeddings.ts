import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible embedding server on 127.0.0.1 (POST /v1/embeddings) whose vectors mean
 * something: each word of a small hand-made concept table adds its concept's dimension, so
 * "automobile" is near "car" and "feline" near "kitten"; any other word adds a little to one of a
 * few hashed dimensions. Texts sharing a concept have a cosine of about 0.7 to 0.9, texts sharing
 * none about 0 to 0.2. It logs every request (with when it arrived and when it was answered), can
 * fail (HTTP 500) and answer late.
 */
export const CONCEPTS: Record<string, string[]> = {
  vehicle: ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'vehicles', 'sedan', 'motorcar'],
  feline: ['cat', 'cats', 'kitten', 'kittens', 'feline', 'felines', 'tomcat'],
  money: ['invoice', 'invoices', 'billing', 'payment', 'payments', 'bill', 'receipt'],
  weather: ['rain', 'rainfall', 'precipitation', 'drizzle', 'downpour', 'showers'],
  music: ['guitar', 'melody', 'song', 'songs', 'tune', 'chord', 'chords'],
  ocean: ['ocean', 'sea', 'marine', 'maritime', 'tide', 'seawater'],
};
const NAMES = Object.keys(CONCEPTS);
const HASHED = 64;
export const DIMENSIONS = NAMES.length + HASHED;
/** What a word outside the table weighs in its hashed dimension (a concept word weighs 1). */
const OTHER_WEIGHT = 0.15;

const conceptOf = new Map<string, number>(
  NAMES.flatMap((name, i) => CONCEPTS[name].map((word): [string, number] => [word, i])),
);

function hashed(word: string): number {
  let h = 2166136261;
  for (const c of word) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return NAMES.length + ((h >>> 0) % HASHED);
}

/** The vector of a text (not normalised: the server under test must not rely on unit vectors). */
export function conceptVector(text: string): number[] {
  const out: number[] = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = conceptOf.get(word);
    if (concept !== undefined) out[concept] += 1;
    else out[hashed(word)] += OTHER_WEIGHT;
  }
  if (!out.some((x) => x > 0)) out[DIMENSIONS - 1] = OTHER_WEIGHT;
  return out.map((x) => x * 3);
}

export interface EmbeddingRequest {
  model: string;
  input: string[];
  /** Milliseconds since the epoch: when it arrived, and when it was answered (or failed). */
  arrived: number;
  answered?: number;
  status?: number;
}

export interface FakeEmbeddings {
  /** The base URL of the OpenAI-compatible API (TROVE_OPENAI_URL). */
  openaiUrl: string;
  requests: EmbeddingRequest[];
  /** While true every request answers HTTP 500. */
  failing: boolean;
  /** Milliseconds before each answer. */
  delayMs: number;
  /** The texts embedded for `model`, all requests together. */
  textsFor(model: string): string[];
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const fake: FakeEmbeddings = {
    openaiUrl: '',
    requests: [],
    failing: false,
    delayMs: 0,
    textsFor: (model) => fake.requests.filter((r) => r.model === model && r.status === 200).flatMap((r) => r.input),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path === '/v1/models') return send(res, 200, { object: 'list', data: [] });
      if (req.method !== 'POST' || path !== '/v1/embeddings')
        return send(res, 404, { error: { message: `no route ${req.method} ${path}` } });
      const body = await bodyOf(req);
      const input: string[] = Array.isArray(body.input) ? body.input : [body.input];
      const logged: EmbeddingRequest = { model: String(body.model), input, arrived: Date.now() };
      fake.requests.push(logged);
      if (fake.delayMs) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
      logged.answered = Date.now();
      if (fake.failing) {
        logged.status = 500;
        return send(res, 500, { error: { message: 'the embedding backend is down', type: 'server_error' } });
      }
      logged.status = 200;
      send(res, 200, {
        object: 'list',
        model: body.model,
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(text) })),
      });
    })().catch((error: Error) => send(res, 400, { error: { message: error.message } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.openaiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

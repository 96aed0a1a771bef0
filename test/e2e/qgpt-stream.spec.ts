import { EventBus } from '@nestjs/cqrs';
import { AssetsApi } from '@pieces.app/pieces-os-client';
import WebSocket from 'ws';
import { ConversationChangedEvent } from '../../src/modules/conversations/events/conversation-changed.event';
import { FakeLlm, startFakeLlm } from './support/fake-llm';
import { http } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';
import { StreamClient } from './support/ws';

type Frame = any;

interface Socket {
  frames: Frame[];
  send(input: unknown): void;
  /** Waits for the first frame (from `from` on) matching the predicate. */
  until(match: (f: Frame) => boolean, from?: number): Promise<Frame>;
  close(): void;
}

async function connect(baseUrl: string): Promise<Socket> {
  const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/qgpt/stream`);
  const frames: Frame[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    expectWire('QGPTStreamOutput', frame);
    frames.push(frame);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    frames,
    send: (input) => ws.send(typeof input === 'string' ? input : JSON.stringify(input)),
    until: async (match, from = 0) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = frames.slice(from).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching frame; got ${JSON.stringify(frames).slice(0, 2000)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => ws.close(),
  };
}

const done = (request: string) => (f: Frame) =>
  f.request === request && ['COMPLETED', 'FAILED', 'STOPPED'].includes(f.status);

describe('ws /qgpt/stream', () => {
  let fake: FakeLlm;
  let server: TestServer;
  let socket: Socket;
  const announced: string[] = [];

  beforeAll(async () => {
    fake = await startFakeLlm();
    server = await startTestServer({ TROVE_OLLAMA_URL: fake.ollamaUrl });
    server.app.get(EventBus).subscribe((event) => {
      if (event instanceof ConversationChangedEvent && event.change === 'created') announced.push(event.conversationId);
    });
    const assets = new AssetsApi(server.sdk);
    await assets.assetsCreateNewAsset({
      seed: textSeed('To rotate logs, configure logrotate with daily rotation and compress old files.', {
        name: 'Log rotation',
      }),
    });
    await assets.assetsCreateNewAsset({
      seed: textSeed('Bananas are yellow and rich in potassium.', { name: 'Fruit' }),
    });
    socket = await connect(server.baseUrl);
  });
  afterAll(async () => {
    socket.close();
    await server.close();
    await fake.close();
  });

  it('answers offline in chunks then COMPLETED without question, in a new conversation that stores both messages', async () => {
    socket.send({ question: { query: 'How do I rotate logs daily?', relevant: { iterable: [] } }, request: 'r1' });
    const end = await socket.until(done('r1'));
    expect(end.status).toBe('COMPLETED');
    expect(end).not.toHaveProperty('question');
    const chunks = socket.frames.filter((f) => f.request === 'r1' && f.status === 'IN-PROGRESS');
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) expect(c.conversation).toBe(end.conversation);
    const answer = chunks.map((c) => c.question.answers.iterable[0].text).join('');
    expect(answer).toContain('logrotate');
    expect(end.conversation).toMatch(/^[0-9a-f-]{36}$/);
    expect(announced).toContain(end.conversation);
    const messages = (await http(server.baseUrl, 'GET', `/conversation/${end.conversation}/messages`)).json.iterable;
    expect(messages.map((m: any) => [m.role, m.fragment.string.raw])).toEqual([
      ['USER', 'How do I rotate logs daily?'],
      ['ASSISTANT', answer],
    ]);
  });

  it('announces the new conversation and each stored message on the conversations stream', async () => {
    const stream = await StreamClient.open(server.baseUrl, '/conversations/stream/identifiers');
    await stream.next(); // the first frame: the current conversations
    socket.send({
      question: { query: 'How do I compress old logs?', relevant: { iterable: [] } },
      request: 'announced',
    });
    const end = await socket.until(done('announced'));
    expect(end.status).toBe('COMPLETED');
    // Created, then the question and the answer stored: three frames naming it, in order.
    const frames = [await stream.next(), await stream.next(), await stream.next()];
    for (const frame of frames) expect(frame).toEqual({ iterable: [{ conversation: { id: end.conversation } }] });
    stream.socket.close();
  });

  it('handles several questions at once on one socket, and relevance without question', async () => {
    socket.send({ question: { query: 'What colour are bananas?', relevant: { iterable: [] } }, request: 'a' });
    socket.send({ relevance: { query: 'rotate logs', options: { database: true } }, request: 'b' });
    socket.send({
      relevance: { query: 'bananas potassium', options: { database: true, question: true } },
      request: 'c',
    });
    const [a, b, c] = await Promise.all([socket.until(done('a')), socket.until(done('b')), socket.until(done('c'))]);
    expect([a.status, b.status, c.status]).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    expect(b.relevance.relevant.iterable[0].seed.asset.format.fragment.string.raw).toContain('logrotate');
    const cText = socket.frames
      .filter((f) => f.request === 'c' && f.status === 'IN-PROGRESS')
      .map((f) => f.question.answers.iterable[0].text)
      .join('');
    expect(cText).toContain('potassium');
    expect(new Set([a.conversation, b.conversation, c.conversation]).size).toBe(3);
  });

  it('continues a given conversation, giving the model its history', async () => {
    const created = await http(server.baseUrl, 'POST', '/conversations/create', { type: 'COPILOT', name: null });
    const id = created.json.id;
    socket.send({
      question: { query: 'first question', relevant: { iterable: [] }, model: 'ollama:llama3.2:1b' },
      request: 'h1',
      conversation: id,
    });
    expect((await socket.until(done('h1'))).status).toBe('COMPLETED');
    fake.requests.length = 0;
    socket.send({
      question: { query: 'second question', relevant: { iterable: [] }, model: 'ollama:llama3.2:1b' },
      request: 'h2',
      conversation: id,
    });
    const end = await socket.until(done('h2'));
    expect(end).toMatchObject({ status: 'COMPLETED', conversation: id });
    const messages = fake.requests.find((r) => r.path === '/api/chat')!.body.messages;
    expect(messages.slice(-3)).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'Hello from the fake model.' },
      { role: 'user', content: 'second question' },
    ]);
    const stored = (await http(server.baseUrl, 'GET', `/conversation/${id}/messages`)).json.iterable;
    expect(stored).toHaveLength(4);
  });

  it('stops a question in flight (STOPPED, no COMPLETED) and resets', async () => {
    fake.delayMs = 200;
    fake.chunks = ['one ', 'two ', 'three ', 'four ', 'five '];
    try {
      socket.send({
        question: { query: 'long answer', relevant: { iterable: [] }, model: 'ollama:llama3.2:1b' },
        request: 's1',
      });
      const first = await socket.until((f) => f.request === 's1' && f.status === 'IN-PROGRESS');
      const mark = socket.frames.length;
      socket.send({ stop: true, conversation: first.conversation });
      const stopped = await socket.until((f) => f.status === 'STOPPED', mark);
      expect(stopped).toMatchObject({ request: 's1', conversation: first.conversation });
      await new Promise((r) => setTimeout(r, 700));
      expect(socket.frames.filter((f) => f.request === 's1' && f.status === 'COMPLETED')).toEqual([]);
      const mark2 = socket.frames.length;
      socket.send({ reset: true, request: 'z' });
      expect(await socket.until((f) => f.request === 'z', mark2)).toMatchObject({ status: 'RESET' });
    } finally {
      fake.delayMs = 5;
      fake.chunks = ['Hello', ' from', ' the', ' fake', ' model.'];
    }
  });

  it.each([
    [429, { 'retry-after': '3' }],
    [503, {}],
    [401, {}],
  ])('reports a provider %s as FAILED with that statusCode', async (status, headers) => {
    fake.fail({ path: '/api/chat', status, headers });
    const request = `e${status}`;
    socket.send({ question: { query: 'q', relevant: { iterable: [] }, model: 'ollama:llama3.2:1b' }, request });
    const end = await socket.until(done(request));
    expect(end).toMatchObject({ status: 'FAILED', statusCode: status });
    expect(end.errorMessage).toMatch(/Ollama/);
    expect(typeof end.conversation).toBe('string');
  });

  it.each([
    [
      'both relevance and question',
      {
        relevance: { query: 'x', options: { database: true } },
        question: { query: 'x', relevant: { iterable: [] } },
        request: 'bad1',
      },
      400,
      /not both/,
    ],
    ['neither', { request: 'bad2' }, 400, /needs relevance, question/],
    ['an invalid question', { question: { query: 5 }, request: 'bad3' }, 400, /query/],
    [
      'an unknown conversation',
      {
        question: { query: 'x', relevant: { iterable: [] } },
        request: 'bad4',
        conversation: '0a0b0c0d-0000-4000-8000-00000000dead',
      },
      404,
      /not found/,
    ],
    [
      'a conversation that is not a UUID',
      { question: { query: 'x', relevant: { iterable: [] } }, request: 'bad5', conversation: 'conv-1' },
      400,
      /UUID/,
    ],
    [
      'an unknown model',
      { question: { query: 'x', relevant: { iterable: [] }, model: 'ollama:nope' }, request: 'bad6' },
      404,
      /does not have that model/,
    ],
  ])('answers FAILED for %s and writes nothing', async (_name, input, status, message) => {
    const before = await server.counts(['conversations', 'conversation_messages']);
    socket.send(input);
    const end = await socket.until(done((input as { request: string }).request));
    expect(end).toMatchObject({ status: 'FAILED', statusCode: status });
    expect(end.errorMessage).toMatch(message);
    if (status !== 404 || !/model/.test(String(message)))
      expect(await server.counts(['conversations', 'conversation_messages'])).toBe(before);
  });

  it('answers FAILED 400 for a lone surrogate in the question, storing nothing (it would be replaced silently)', async () => {
    const before = await server.counts(['conversations', 'conversation_messages']);
    socket.send('{"request":"lone","relevance":{"query":"why \\ud800 here","options":{"question":true}}}');
    const end = await socket.until(done('lone'));
    expect(end).toMatchObject({ status: 'FAILED', statusCode: 400 });
    expect(end.errorMessage).toMatch(/lone surrogate/);
    expect(await server.counts(['conversations', 'conversation_messages'])).toBe(before);
  });

  it('answers FAILED 400 for a frame that is not JSON, and keeps the socket open', async () => {
    const mark = socket.frames.length;
    socket.send('not json');
    expect(await socket.until((f) => f.status === 'FAILED', mark)).toMatchObject({ statusCode: 400, conversation: '' });
    socket.send({ question: { query: 'bananas', relevant: { iterable: [] } }, request: 'after' });
    expect((await socket.until(done('after'))).status).toBe('COMPLETED');
  });
});

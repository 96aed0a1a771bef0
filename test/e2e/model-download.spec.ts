import {
  ModelApi,
  ModelDownloadProgressFromJSON,
  ModelDownloadProgressStatusEnum,
  ModelsApi,
} from '@pieces.app/pieces-os-client';
import { derivedId } from '../../src/common/wire/derived-id';
import { FakeLlm, startFakeLlm } from './support/fake-llm';
import { expectError, http, statusOf } from './support/http';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';
import { StreamClient } from './support/ws';

/** A model Pieces for Sublime offers to download (its unique is an Ollama tag). */
const LLAMA = 'llama3.2:1b-instruct-q4_K_S';
const PHI = 'phi3:3.8b-mini-4k-instruct-q4_K_S';
const GB = 1024 * 1024 * 1024;

const progressOf = (baseUrl: string, id: string) => StreamClient.open(baseUrl, `/model/${id}/download/progress`);

/** Frames until (and with) the first that is not IN-PROGRESS, as Sublime reads them. */
async function untilSettled(
  stream: StreamClient,
  ms = 20_000,
): Promise<Array<{ status: string; percentage: number | null }>> {
  const frames = [];
  for (;;) {
    const frame = await stream.next(ms);
    expectWire('ModelDownloadProgress', frame);
    frames.push(frame);
    if (frame.status !== 'IN-PROGRESS') return frames;
  }
}

describe('model download through Ollama (POST /model/{id}/download, WS /model/{id}/download/progress, cancel)', () => {
  let fake: FakeLlm;
  let server: TestServer;
  let models: ModelsApi;
  let model: ModelApi;
  const listed = async (unique: string) => (await models.modelsSnapshot()).iterable.find((m) => m.unique === unique);

  beforeAll(async () => {
    fake = await startFakeLlm();
    fake.pullable = {
      [LLAMA]: [
        { digest: 'sha256:74701a8c35f6c8d9a4b91f3f3497643001d63e0c7a84e085bed452548fa88d45', total: 1 * GB },
        { digest: 'sha256:966de95ca8a62200913e3f8bfbf84c8494536f1b94b49166851e76644e966396', total: 1_400 },
      ],
      [PHI]: [{ digest: 'sha256:4fed7364ee3e0c7cb4fe0880148bfdfcd1b630981efa0802a6b62ee52e7da97e', total: 2 * GB }],
    };
    fake.pullChunk = 64 * 1024 * 1024;
    server = await startTestServer({ TROVE_OLLAMA_URL: fake.ollamaUrl });
    models = new ModelsApi(server.sdk);
    model = new ModelApi(server.sdk);
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it("lists the local models the clients offer to download as not downloaded, under the id of the Ollama model they become, next to Ollama's own", async () => {
    const llama = await listed(LLAMA);
    expect(llama).toMatchObject({
      id: derivedId('ollama', LLAMA),
      name: 'Llama 3.2 1B',
      downloaded: false,
      downloading: false,
      cloud: false,
    });
    expect(llama?.description).toMatch(
      /not downloaded yet: POST \/model\/\{id\}\/download pulls llama3\.2:1b-instruct-q4_K_S through Ollama/,
    );
    expect(await listed('llama3.2:1b')).toMatchObject({ downloaded: true });
    expectWire('Models', (await http(server.baseUrl, 'GET', '/models')).json);
  });

  it('pulls through Ollama with progress frames in the SDK shape, then lists the model downloaded under the same id', async () => {
    const id = derivedId('ollama', LLAMA);
    const before = fake.requests.length;
    // As Pieces for Sublime does: download, then open the progress socket for the model it answered.
    const started = await model.modelSpecificModelDownload({ model: id });
    expect(started).toMatchObject({ id, downloaded: false, downloading: true });
    const stream = await progressOf(server.baseUrl, started.id);
    const frames = await untilSettled(stream);
    stream.close();
    const pull = fake.requests.slice(before).find((r) => r.path === '/api/pull');
    expect(pull?.body).toEqual({ model: LLAMA, stream: true });
    // The first frame is the download's state then; every frame after is a later percentage.
    expect(frames[0].status).toBe('IN-PROGRESS');
    const inProgress = frames.slice(0, -1).map((f) => f.percentage!);
    expect(inProgress.length).toBeGreaterThan(5);
    expect(inProgress).toEqual([...inProgress].sort((a, b) => a - b));
    expect(Math.max(...inProgress)).toBeLessThan(100);
    expect(frames.at(-1)).toEqual({ status: 'COMPLETED', percentage: 100 });
    expect(ModelDownloadProgressFromJSON(frames.at(-1)).status).toBe(ModelDownloadProgressStatusEnum.Completed);
    expect(await listed(LLAMA)).toMatchObject({ id, downloaded: true, downloading: false });
    // Downloaded: asking again answers the model as it is, and starts nothing.
    const requests = fake.requests.length;
    expect(await model.modelSpecificModelDownload({ model: id })).toMatchObject({ id, downloaded: true });
    expect(fake.requests.slice(requests).some((r) => r.path === '/api/pull')).toBe(false);
    const later = await progressOf(server.baseUrl, id);
    expect(await later.next()).toEqual({ status: 'COMPLETED', percentage: 100 });
    later.close();
  });

  it('announces the model on /models/stream/identifiers when its download starts and when it ends', async () => {
    fake.pullable['codellama:7b-instruct-q4_K_S'] = [
      { digest: 'sha256:aaaa000000000000000000000000000000000000000000000000000000000001', total: 256 * 1024 * 1024 },
    ];
    const id = derivedId('ollama', 'codellama:7b-instruct-q4_K_S');
    const ids = await StreamClient.open(server.baseUrl, '/models/stream/identifiers');
    await ids.next();
    const progress = await progressOf(server.baseUrl, id);
    expect(await progress.next()).toEqual({ status: 'UNKNOWN', percentage: null });
    await model.modelSpecificModelDownload({ model: id });
    await untilSettled(progress);
    const changes = await ids.take(2);
    expect(changes).toEqual([{ iterable: [{ model: { id } }] }, { iterable: [{ model: { id } }] }]);
    ids.close();
    progress.close();
  });

  it('cancel aborts the pull (Ollama sees the connection close), the socket gets CANCELED, the model stays not downloaded', async () => {
    fake.pullDelayMs = 40;
    try {
      const id = derivedId('ollama', PHI);
      await model.modelSpecificModelDownload({ model: id });
      const stream = await progressOf(server.baseUrl, id);
      expect((await stream.next()).status).toBe('IN-PROGRESS');
      expect((await listed(PHI))?.downloading).toBe(true);
      const cancelled = await model.modelSpecificModelDownloadCancel({ model: id });
      expect(cancelled).toMatchObject({ id, downloading: false, downloaded: false });
      const frames = await untilSettled(stream);
      expect(frames.at(-1)).toEqual({ status: 'CANCELED', percentage: null });
      stream.close();
      for (let i = 0; i < 50 && !fake.pullsAborted.includes(PHI); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(fake.pullsAborted).toContain(PHI);
      expect(await listed(PHI)).toMatchObject({ downloaded: false, downloading: false });
      // Cancelling when nothing runs answers the model as it is.
      expect(await model.modelSpecificModelDownloadCancel({ model: id })).toMatchObject({ id, downloading: false });
    } finally {
      fake.pullDelayMs = 5;
    }
  });

  it('a pull Ollama refuses ends FAILED (its error line), and the model stays downloadable', async () => {
    const unique = 'granite-code:3b-instruct-q4_K_S'; // in the list, not pullable from the fake
    const id = derivedId('ollama', unique);
    await model.modelSpecificModelDownload({ model: id });
    const stream = await progressOf(server.baseUrl, id);
    const frames = await untilSettled(stream);
    expect(frames.at(-1)).toEqual({ status: 'FAILED', percentage: null });
    stream.close();
    expect(await listed(unique)).toMatchObject({ downloaded: false, downloading: false });
  });

  it('answers 404 for an unknown model and 400 for an id that is not a UUID; the socket of a malformed id is closed with 1008', async () => {
    expectError(
      await http(server.baseUrl, 'POST', '/model/0a0b0c0d-0000-4000-8000-00000000dead/download'),
      404,
      /not found/,
    );
    expectError(await http(server.baseUrl, 'POST', '/model/not-a-model/download'), 400, /UUID/);
    expectError(await http(server.baseUrl, 'POST', '/model/not-a-model/download/cancel'), 400, /UUID/);
    const bad = new StreamClient(
      new (await import('ws')).default(`${server.baseUrl.replace('http', 'ws')}/model/not-a-model/download/progress`),
    );
    expect((await bad.closed).code).toBe(1008);
  });
});

describe('model download with nothing able to download it', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('a local model the clients download through Ollama: 400 saying none is configured', async () => {
    const id = derivedId('ollama', LLAMA);
    const res = await http(server.baseUrl, 'POST', `/model/${id}/download`);
    expectError(
      res,
      400,
      /Llama 3\.2 1B \(llama3\.2:1b-instruct-q4_K_S\) is downloaded through Ollama, and none is configured: nothing here can download it \(set TROVE_OLLAMA_URL\)/,
    );
    expect(await statusOf(new ModelApi(server.sdk).modelSpecificModelDownload({ model: id }))).toBe(400);
    // And it is not listed: nothing here could download it.
    expect((await new ModelsApi(server.sdk).modelsSnapshot()).iterable.some((m) => m.unique === LLAMA)).toBe(false);
  });

  it('the models already here (the offline engine, the client models it answers for) are answered as they are', async () => {
    const listed = (await new ModelsApi(server.sdk).modelsSnapshot()).iterable;
    for (const m of listed) {
      const answered = await new ModelApi(server.sdk).modelSpecificModelDownload({ model: m.id });
      expect(answered).toMatchObject({ id: m.id, downloaded: true, downloading: false });
    }
  });
});

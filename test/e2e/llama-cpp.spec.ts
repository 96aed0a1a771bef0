import { ModelsApi } from '@pieces.app/pieces-os-client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError, http } from './support/http';
import { useTestServer } from './support/server';
import { writeTinyGguf } from './support/tiny-gguf';
import { expectWire } from './support/wire';

/**
 * node-llama-cpp (optional dependency) on a tiny GGUF the test writes: the code path
 * (discover, load, chat streaming, embeddings, unload, cache refusal), not the text, which
 * from random weights is gibberish.
 */
describe('local GGUF models through node-llama-cpp', () => {
  let dir: string;
  let file: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'trove-gguf-'));
    file = join(dir, 'tiny-test.gguf');
    writeTinyGguf(file);
  });
  const server = useTestServer(() => ({ TROVE_GGUF_PATHS: dir }));
  // Registered after the server's afterAll: the file goes once the server has closed.
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const model = async () =>
    (await http(server.baseUrl, 'GET', '/models')).json.iterable.find((m: { unique: string }) => m.unique === file);

  it('lists the GGUF file as a local, downloaded, not yet loaded CPU model', async () => {
    const raw = await http(server.baseUrl, 'GET', '/models');
    expectWire('Models', raw.json);
    expect(await model()).toMatchObject({
      name: 'tiny-test',
      cloud: false,
      downloaded: true,
      loaded: false,
      cpu: true,
      custom: false,
    });
  });

  it('answers a question with the model (loading it), and answers again on the same loaded model', async () => {
    const m = await model();
    for (let i = 0; i < 2; i++) {
      const res = await http(server.baseUrl, 'POST', '/qgpt/question', {
        query: 'hello world',
        model: m.id,
        relevant: { iterable: [] },
      });
      expect(res.status).toBe(200);
      expectWire('QGPTQuestionOutput', res.json);
      expect(res.json.answers.iterable).toHaveLength(1);
      expect(res.json.answers.iterable[0].score).toBe(1);
    }
    expect((await model()).loaded).toBe(true);
  }, 60_000);

  it('embeds with the model', async () => {
    const { ModelRegistry } = await import('../../src/modules/models/model-registry');
    const resolved = await server.app.get(ModelRegistry).resolve(`llama_cpp:${file}`);
    const vectors = await resolved.provider.embed(resolved.unique, ['hello', 'world']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(16);
    expect(vectors[0].every((v) => typeof v === 'number' && Number.isFinite(v))).toBe(true);
  }, 60_000);

  it("refuses to delete the user's file as a cache, and unloads the model", async () => {
    const m = await model();
    expectError(await http(server.baseUrl, 'POST', `/models/${m.id}/delete/cache`), 400, /your own GGUF file/);
    await new ModelsApi(server.sdk).unloadModels();
    expect((await model()).loaded).toBe(false);
  }, 60_000);

  it('a path that is not one of the configured files is a 404', async () => {
    const res = await http(server.baseUrl, 'POST', '/qgpt/question', {
      query: 'q',
      model: 'llama_cpp:/etc/passwd.gguf',
      relevant: { iterable: [] },
    });
    expectError(res, 404, /not a GGUF file under TROVE_GGUF_PATHS/);
  });
});

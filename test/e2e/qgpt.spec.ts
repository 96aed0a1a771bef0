import { AssetsApi, QGPTApi } from '@pieces.app/pieces-os-client';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError, http } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';

interface Labelled {
  snippets: Array<{ key: string; name: string; text: string }>;
  questions: Array<{ query: string; expected: string }>;
}
const labelled: Labelled = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'qgpt-retrieval.json'), 'utf8'));

const UNKNOWN = '0a0b0c0d-0000-4000-8000-00000000dead';
const TABLES = ['assets', 'formats', 'conversations', 'conversation_messages', 'models'];

describe('question answering with the offline engine', () => {
  let server: TestServer;
  let qgpt: QGPTApi;
  let root: string;
  let outside: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'trove-qgpt-root-'));
    outside = mkdtempSync(join(tmpdir(), 'trove-qgpt-outside-'));
    server = await startTestServer({ TROVE_QGPT_ROOTS: root, TROVE_QGPT_FILE_LIMIT: '4096' });
    qgpt = new QGPTApi(server.sdk);
    const assets = new AssetsApi(server.sdk);
    for (const s of labelled.snippets) {
      const asset = await assets.assetsCreateNewAsset({
        seed: textSeed(s.text, { name: s.name }),
        transferables: false,
      });
      ids.set(s.key, asset.id);
    }
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('ranks the right snippet of the labelled set in the top 3 for at least 85% of the questions (database space)', async () => {
    expect(labelled.snippets.length).toBeGreaterThanOrEqual(30);
    expect(labelled.questions.length).toBeGreaterThanOrEqual(15);
    let hits = 0;
    const misses: string[] = [];
    for (const q of labelled.questions) {
      const out = await qgpt.relevance({ qGPTRelevanceInput: { query: q.query, options: { database: true } } });
      expectWire('QGPTRelevanceOutput', out);
      const top = out.relevant.iterable.slice(0, 3).map((r) => r.asset?.id);
      if (top.includes(ids.get(q.expected))) hits += 1;
      else misses.push(q.query);
    }
    const recall = hits / labelled.questions.length;
    if (recall < 1) console.log(`recall@3 = ${recall}; missed: ${misses.join(' | ')}`);
    expect(recall).toBeGreaterThanOrEqual(0.85);
  });

  it('answers from the database: the best passage is the relevant one, with scores, deterministically', async () => {
    const input = {
      query: 'How do I cache users in Redis so they expire after an hour?',
      options: { database: true, question: true },
    };
    const first = await qgpt.relevance({ qGPTRelevanceInput: input });
    const second = await qgpt.relevance({ qGPTRelevanceInput: input });
    expectWire('QGPTRelevanceOutput', first);
    expect(first.answer).toBeDefined();
    const answers = first.answer!.answers.iterable;
    expect(answers.length).toBeGreaterThan(1);
    expect(answers[0].text).toContain('redis.set(`user:${id}`');
    for (const a of answers) expect(a.score).toBeGreaterThan(0);
    expect(answers.map((a) => a.score)).toEqual([...answers.map((a) => a.score)].sort((a, b) => b - a));
    expect(second.answer!.answers.iterable).toEqual(answers);
    expect(first.relevant.iterable[0].asset?.id).toBe(ids.get('redis-cache'));
  });

  it('relevance over seeds ranks the matching seed first and gives ids that question accepts', async () => {
    const seeds = [
      'The cat sleeps on the sofa all afternoon.',
      'To rotate logs, configure logrotate with daily rotation and compress old files.',
      'Bananas are yellow.',
    ];
    const out = await qgpt.relevance({
      qGPTRelevanceInput: { query: 'how to rotate logs daily', seeds: { iterable: seeds.map((s) => textSeed(s)) } },
    });
    expectWire('QGPTRelevanceOutput', out);
    expect(out.answer).toBeUndefined();
    const best = out.relevant.iterable[0];
    expect(best.seed?.asset?.format?.fragment?.string?.raw).toContain('logrotate');
    expect(best.id).toMatch(/^[0-9a-f-]{36}$/);
    const answer = await qgpt.question({
      qGPTQuestionInput: { query: 'how do I rotate logs?', relevant: { iterable: [{ id: best.id }] } },
    });
    expectWire('QGPTQuestionOutput', answer);
    expect(answer.answers.iterable[0].text).toContain('logrotate');
  });

  it('relevance over asset ids only looks at those assets', async () => {
    const out = await qgpt.relevance({
      qGPTRelevanceInput: {
        query: 'How do I cache users in Redis?',
        assets: { iterable: [{ id: ids.get('css-center')! }, { id: ids.get('cron')! }] },
      },
    });
    for (const r of out.relevant.iterable) expect([ids.get('css-center'), ids.get('cron')]).toContain(r.asset?.id);
  });

  it('finds identifiers typed with one typo, as search does (relevance and neural code search)', async () => {
    // [typo'd identifier, the snippet defining it]: transposition, deletion, insertion, substitution
    const cases: Array<[string, string]> = [
      ['initialDelaySecodns', 'k8s-probe'],
      ['idleTimeoutMilis', 'pg-pool'],
      ['wal_checkpoinnt', 'sqlite-wal'],
      ['proxy_add_x_forwarded_fur', 'nginx-proxy'],
      ['getDepratment', 'java-stream'],
      ['default_factroy', 'python-dataclass'],
    ];
    for (const [query, key] of cases) {
      const out = await qgpt.relevance({ qGPTRelevanceInput: { query, options: { database: true } } });
      const top = out.relevant.iterable.slice(0, 3).map((r) => r.asset?.id);
      expect({ query, found: top.includes(ids.get(key)) }).toEqual({ query, found: true });
      // the passage that contains the real identifier is the one quoted
      expect({ query, best: out.relevant.iterable[0].asset?.id }).toEqual({ query, best: ids.get(key) });
      const ncs = await http(server.baseUrl, 'GET', `/search/neural_code?query=${encodeURIComponent(query)}`);
      expect(ncs.status).toBe(200);
      const ranked = (ncs.json as { iterable: Array<{ identifier: string }> }).iterable.map((r) => r.identifier);
      expect({ query, ncs: ranked.slice(0, 3).includes(ids.get(key)!) }).toEqual({ query, ncs: true });
    }
  });

  it('finds a function whose name joins its words (valuestodict) by a question that says them apart', async () => {
    const assets = new AssetsApi(server.sdk);
    const joined = await assets.assetsCreateNewAsset({
      seed: textSeed(
        'def valuestodict(handle):\n    out = {}\n    for i in range(count(handle)):\n        k, v = entry(handle, i)\n        out[k] = v\n    return out\n',
      ),
      transferables: false,
    });
    const other = await assets.assetsCreateNewAsset({
      seed: textSeed(
        'def flatten(rows):\n    out = []\n    for row in rows:\n        out.extend(row.values())\n    return out\n',
      ),
      transferables: false,
    });
    try {
      for (const query of ['turn the values into a dict', 'convert values to a dict']) {
        const out = await qgpt.relevance({ qGPTRelevanceInput: { query, options: { database: true } } });
        expect({ query, best: out.relevant.iterable[0]?.asset?.id }).toEqual({ query, best: joined.id });
        const ncs = await http(server.baseUrl, 'GET', `/search/neural_code?query=${encodeURIComponent(query)}`);
        expect(ncs.status).toBe(200);
        expect({
          query,
          best: (ncs.json as { iterable: Array<{ identifier: string }> }).iterable[0]?.identifier,
        }).toEqual({ query, best: joined.id });
      }
      // search (the CLI's `search`) finds it by its words as well
      const found = await http(server.baseUrl, 'GET', `/assets/search?query=${encodeURIComponent('values dict')}`);
      expect(found.status).toBe(200);
      expect((found.json as { iterable: Array<{ identifier: string }> }).iterable.map((r) => r.identifier)).toEqual([
        joined.id,
      ]);
    } finally {
      for (const id of [joined.id, other.id]) await new AssetsApi(server.sdk).assetsDeleteAsset({ asset: id });
    }
  });

  it('question answers from text seeds with several scored answers', async () => {
    const text =
      'Install the CLI with npm.\n\nTo deploy, run `trove deploy --prod` from the project root; it uploads the build.\n\nLogs are in ~/.trove/logs.';
    const out = await qgpt.question({
      qGPTQuestionInput: {
        query: 'How do I deploy to production?',
        relevant: { iterable: [{ seed: textSeed(text) }] },
      },
    });
    expectWire('QGPTQuestionOutput', out);
    expect(out.answers.iterable[0].text).toContain('trove deploy --prod');
  });

  it('question with no snippets searches the whole store offline', async () => {
    const out = await qgpt.question({
      qGPTQuestionInput: { query: 'How do I compute a running total of payments in SQL?', relevant: { iterable: [] } },
    });
    expect(out.answers.iterable[0].text).toContain('OVER (ORDER BY day)');
  });

  it('reprompt makes a follow-up standalone with the terms of the previous question', async () => {
    const ts = { value: new Date('2024-01-01T00:00:00.000Z'), readable: 'Jan 1, 2024' };
    const out = await qgpt.reprompt({
      qGPTRepromptInput: {
        query: 'How do I test it?',
        conversation: {
          iterable: [
            { role: 'USER', text: 'How do I configure the Redis cache for user sessions?', timestamp: ts },
            { role: 'ASSISTANT', text: 'Use cache-aside with an expiry.', timestamp: ts },
          ],
        } as never,
      },
    });
    expectWire('QGPTRepromptOutput', out);
    expect(out.query).toMatch(/^How do I test it\?/);
    expect(out.query).toMatch(/Redis/);
    const standalone = await qgpt.reprompt({
      qGPTRepromptInput: { query: 'How do I configure nginx as a reverse proxy?', conversation: { iterable: [] } },
    });
    expect(standalone.query).toBe('How do I configure nginx as a reverse proxy?');
  });

  it('hints suggests follow-up questions about the snippets, not about what was asked', async () => {
    const code =
      'class RateLimiter {\n  constructor(limit) { this.limit = limit; }\n}\nfunction acquireToken(bucket) {\n  return bucket.take();\n}';
    const out = await qgpt.hints({
      qGPTHintsInput: {
        query: 'what is a token bucket',
        answer: { score: 1, text: 'A token bucket limits request rates.' },
        relevant: { iterable: [{ seed: textSeed(code) }] },
      },
    });
    expectWire('QGPTQuestionOutput', out);
    const texts = out.answers.iterable.map((a) => a.text);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.join('\n')).toMatch(/RateLimiter|acquireToken/);
    for (const a of out.answers.iterable) expect(a.text).toMatch(/\?$/);
  });

  it('hints are grammatical questions about things the answer names (no verb phrases read as nouns)', async () => {
    const prose =
      'The scheduler moves smaller items to the front of the queue. Each worker keeps a connection pool, ' +
      'and failed requests are retried with exponential backoff by the retry policy.';
    const out = await qgpt.hints({
      qGPTHintsInput: {
        query: 'how are jobs ordered',
        answer: { score: 1, text: prose },
        relevant: { iterable: [{ seed: textSeed(prose) }] },
      },
    });
    const texts = out.answers.iterable.map((a) => a.text);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      expect(text).toMatch(
        /^(?:How does the [a-z][\w ]*[^s] work\?|How do [a-z][\w ]*s work\?|How does [A-Z][\w ]* work\?|What does `\w+` do\?|What is `\w+` used for\?|How do I use `\w+`\?)$/,
      );
      expect(text).not.toMatch(/moves smaller/);
    }
  });

  it('persons/related is empty: Trove records no persons and invents none', async () => {
    const out = await qgpt.personsRelated({
      qGPTPersonsRelatedInput: { seed: textSeed('git blame shows who wrote this') },
    });
    expectWire('QGPTPersonsRelatedOutput', out);
    expect(out.persons.iterable).toEqual([]);
    const raw = await http(server.baseUrl, 'POST', '/qgpt/persons/related');
    expect(raw.status).toBe(200);
    expect(raw.json).toEqual({ persons: { iterable: [] } });
  });

  describe('local paths', () => {
    beforeAll(() => {
      writeFileSync(
        join(root, 'notes.md'),
        '# Deploy\n\nRun make release to publish the package.\n\nUnrelated: the office plant needs water.',
      );
      mkdirSync(join(root, 'sub'));
      writeFileSync(join(root, 'sub', 'db.txt'), 'Back up the database nightly with pg_dump.');
      writeFileSync(join(outside, 'secret.txt'), 'the secret release password');
      symlinkSync(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
      writeFileSync(join(root, 'big.txt'), 'x'.repeat(5000));
      writeFileSync(join(root, 'binary.bin'), Buffer.from([1, 2, 0, 3]));
      execFileSync('mkfifo', [join(root, 'pipe')]);
    });

    it('reads a file under the allowed roots', async () => {
      const out = await qgpt.relevance({
        qGPTRelevanceInput: {
          query: 'how do I release the package',
          paths: [join(root, 'notes.md')],
          options: { question: true },
        },
      });
      expect(out.relevant.iterable[0].path).toBe(join(root, 'notes.md'));
      expect(out.answer!.answers.iterable[0].text).toContain('make release');
    });

    it('reads a directory, skipping what leaves the roots, binaries, oversized files and FIFOs', async () => {
      const out = await qgpt.relevance({
        qGPTRelevanceInput: { query: 'release password backup database', paths: [root] },
      });
      const texts = out.relevant.iterable.map((r) => r.seed?.asset?.format?.fragment?.string?.raw ?? '').join('\n');
      expect(texts).toContain('pg_dump');
      expect(texts).not.toContain('secret');
    });

    it.each([
      ['a relative path', () => 'notes.md', 400, /absolute/],
      [
        'traversal out of the root',
        () => join(root, '..', outside.split('/').pop()!, 'secret.txt'),
        404,
        /cannot be read: .*outside/,
      ],
      ['a symlink pointing out', () => join(root, 'link-out.txt'), 404, /cannot be read: .*outside/],
      ['a FIFO', () => join(root, 'pipe'), 400, /not a regular file/],
      ['a NUL byte', () => `${root}/notes.md\u0000.txt`, 400, /NUL/],
      ['a file over the size cap', () => join(root, 'big.txt'), 400, /TROVE_QGPT_FILE_LIMIT/],
      ['a binary file', () => join(root, 'binary.bin'), 400, /not a text file/],
      ['a missing file', () => join(root, 'missing.txt'), 404, /cannot be read: it does not exist/],
      ['a path outside every root', () => join(outside, 'secret.txt'), 404, /cannot be read: .*outside/],
    ])('refuses %s', async (_what, path, status, message) => {
      const res = await http(server.baseUrl, 'POST', '/qgpt/relevance', { query: 'release', paths: [path()] });
      expectError(res, status, message);
    });

    it('refuses every local path when TROVE_QGPT_ROOTS is none', async () => {
      const other = await startTestServer({ TROVE_QGPT_ROOTS: 'none' });
      try {
        const res = await http(other.baseUrl, 'POST', '/qgpt/relevance', {
          query: 'x',
          paths: [join(root, 'notes.md')],
        });
        expectError(res, 403, /TROVE_QGPT_ROOTS/);
      } finally {
        await other.close();
      }
    });

    it('reads under the home directory by default on a loopback address, but not its top-level hidden directories', async () => {
      const home = mkdtempSync(join(tmpdir(), 'trove-home-'));
      mkdirSync(join(home, 'project', '.github'), { recursive: true });
      mkdirSync(join(home, '.ssh'));
      writeFileSync(join(home, 'project', 'deploy.md'), 'Deploy with `make ship` after tagging the release.\n');
      writeFileSync(join(home, 'project', '.github', 'ci.yml'), 'steps: run make ship on every tag\n');
      writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY ship\n');
      const other = await startTestServer({ HOME: home });
      try {
        const ok = await http(other.baseUrl, 'POST', '/qgpt/relevance', {
          query: 'how do I ship',
          paths: [join(home, 'project', 'deploy.md'), join(home, 'project', '.github', 'ci.yml')],
        });
        expect(ok.status).toBe(200);
        expect(ok.json.relevant.iterable.map((r: { path: string }) => r.path).sort()).toEqual([
          join(home, 'project', '.github', 'ci.yml'),
          join(home, 'project', 'deploy.md'),
        ]);
        expectError(
          await http(other.baseUrl, 'POST', '/qgpt/relevance', {
            query: 'key',
            paths: [join(home, '.ssh', 'id_ed25519')],
          }),
          404,
          /cannot be read: .*hidden directories/,
        );
        expectError(
          await http(other.baseUrl, 'POST', '/qgpt/relevance', { query: 'release', paths: [join(root, 'notes.md')] }),
          404,
          /cannot be read: .*outside the home directory/,
        );
        const everything = await http(other.baseUrl, 'POST', '/qgpt/relevance', { query: 'ship', paths: [home] });
        expect(everything.json.relevant.iterable.map((r: { path: string }) => r.path)).toEqual([
          join(home, 'project', 'deploy.md'),
        ]);
      } finally {
        await other.close();
        rmSync(home, { recursive: true, force: true });
      }
    });
  });

  describe('query spaces as the official clients send them', () => {
    it('searches the whole store when the input names no query space (the CLI asking with nothing attached)', async () => {
      const out = await qgpt.relevance({
        qGPTRelevanceInput: { query: labelled.questions[0].query, options: { question: true } },
      });
      expect(out.relevant.iterable.slice(0, 3).map((r) => r.asset?.id)).toContain(
        ids.get(labelled.questions[0].expected),
      );
      expect(out.answer!.answers.iterable[0].score).toBeGreaterThan(0);
    });

    it('takes the union when several spaces are given (files and materials attached together)', async () => {
      const asset = ids.get(labelled.questions[0].expected)!;
      const out = await http(server.baseUrl, 'POST', '/qgpt/relevance', {
        query: 'release checklist and ' + labelled.questions[0].query,
        paths: [join(root, 'notes.md')],
        assets: { iterable: [{ id: asset }] },
      });
      expect(out.status).toBe(200);
      const sources = out.json.relevant.iterable.map(
        (r: { path?: string; asset?: { id: string } }) => r.path ?? r.asset?.id,
      );
      expect(sources).toEqual(expect.arrayContaining([join(root, 'notes.md'), asset]));
    });
  });

  describe('bad input: a 4xx JSON body and nothing written', () => {
    it.each([
      ['relevance without body', '/qgpt/relevance', undefined, 400, /query/],
      [
        'relevance with an unknown field',
        '/qgpt/relevance',
        { query: 'x', options: { database: true }, bogus: 1 },
        400,
        /bogus/,
      ],
      [
        'relevance with a query that is not a string',
        '/qgpt/relevance',
        { query: 5, options: { database: true } },
        400,
        /query/,
      ],
      [
        'relevance with an unknown asset',
        '/qgpt/relevance',
        { query: 'x', assets: { iterable: [{ id: UNKNOWN }] } },
        404,
        /not found/,
      ],
      [
        'relevance with an asset id that is not a UUID',
        '/qgpt/relevance',
        { query: 'x', assets: { iterable: [{ id: 'nope' }] } },
        400,
        /UUID/,
      ],
      [
        'relevance with a seed without text',
        '/qgpt/relevance',
        { query: 'x', seeds: { iterable: [{ type: 'SEEDED_ASSET', asset: { format: {} } }] } },
        400,
        /fragment/,
      ],
      [
        'relevance with an unknown model',
        '/qgpt/relevance',
        { query: 'x', options: { database: true, question: true }, model: UNKNOWN },
        404,
        /model/,
      ],
      ['question without relevant', '/qgpt/question', { query: 'x' }, 400, /relevant/],
      [
        'question with an unknown snippet id',
        '/qgpt/question',
        { query: 'x', relevant: { iterable: [{ id: UNKNOWN }] } },
        400,
        /not a snippet id/,
      ],
      [
        'question with a snippet that has neither id nor seed',
        '/qgpt/question',
        { query: 'x', relevant: { iterable: [{}] } },
        400,
        /needs an id/,
      ],
      ['reprompt without conversation', '/qgpt/reprompt', { query: 'x' }, 400, /conversation/],
      [
        'reprompt with a bad role',
        '/qgpt/reprompt',
        { query: 'x', conversation: { iterable: [{ text: 'a', role: 'BOSS' }] } },
        400,
        /role/,
      ],
      ['hints without relevant', '/qgpt/hints', { query: 'x' }, 400, /relevant/],
      ['persons/related with an unknown field', '/qgpt/persons/related', { who: 'me' }, 400, /who/],
    ])('%s', async (_name, path, body, status, message) => {
      const before = await server.counts(TABLES);
      const res = await http(server.baseUrl, 'POST', path, body);
      expectError(res, status, message);
      expect(await server.counts(TABLES)).toBe(before);
    });

    it('malformed JSON is a 400', async () => {
      const res = await http(server.baseUrl, 'POST', '/qgpt/question', '{"query":', {
        'content-type': 'application/json',
      });
      expectError(res, 400);
    });
  });
});

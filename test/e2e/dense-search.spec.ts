import { AssetsApi } from '@pieces.app/pieces-os-client';
import { http } from './support/http';
import { rankingStore, Ranking } from './support/ranking';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';

/**
 * The dense first stage: relevance, neural code search and search (for a sentence) also take the
 * assets nearest to the question in the shipped code embedding, over the whole store, so code that
 * shares no word with the question is found at all. Each question below shares no word with any
 * snippet (the words stages find nothing: before the dense stage, these answers were empty).
 * The nearest assets come from per-instance sketches kept in step with the store through the change
 * outbox, whichever instance made the change (two instances on one store: PostgreSQL under
 * `npm run test:pg`, one SQLite file otherwise).
 */
const SNIPPETS: Record<string, string> = {
  digest:
    "import hashlib\n\ndef digest(path):\n    h = hashlib.sha256()\n    with open(path, 'rb') as f:\n        for block in iter(lambda: f.read(65536), b''):\n            h.update(block)\n    return h.hexdigest()\n",
  backoff: 'import time\n\ndef backoff(attempt):\n    time.sleep(min(30, 2 ** attempt))\n',
  rows: "import csv\n\ndef rows(path):\n    with open(path, newline='') as f:\n        return list(csv.DictReader(f))\n",
  email:
    "import re\n\nEMAIL = re.compile(r'^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', re.I)\n\ndef valid(address):\n    return bool(EMAIL.match(address))\n",
  setting: 'import os\n\ndef setting(key, default=None):\n    return os.environ.get(key, default)\n',
  sorted: 'def by_age(people):\n    return sorted(people, key=lambda p: p.age, reverse=True)\n',
};

const CHECKSUM = 'compute the checksum of a file';
const ENVIRONMENT = 'read a configuration value from the environment';

describe('dense first stage: code that shares no word with the question', () => {
  let a: TestServer;
  let b: TestServer | undefined;
  let store: Ranking;
  beforeAll(async () => {
    a = await startTestServer();
    store = await rankingStore(a, SNIPPETS);
  });
  afterAll(async () => {
    await b?.close();
    await a.close();
  });

  it.each([
    [CHECKSUM, 'digest'],
    ['check that an e-mail is well formed', 'email'],
    [ENVIRONMENT, 'setting'],
    ['wait longer after each failed try', 'backoff'],
  ])('"%s" finds %s first in relevance and neural code search', async (question, expected) => {
    expect((await store.ncs(question))[0]).toBe(store.ids.get(expected));
    expect((await store.relevance(question))[0]).toBe(store.ids.get(expected));
  });

  it('search finds it for a sentence; a name looked up alone is left to the words', async () => {
    expect((await store.search(CHECKSUM))[0]).toBe(store.ids.get('digest'));
    expect((await store.search(ENVIRONMENT))[0]).toBe(store.ids.get('setting'));
    // One word (or a misspelt name) never brings the nearest code: only what the words find.
    expect(await store.search('checksum')).toEqual([]);
    expect([...new Set(await store.relevance('hexdigst'))]).toEqual([store.ids.get('digest')]);
  });

  it('follows the store: created, changed and deleted assets, by this instance or another', async () => {
    const question = 'shuffle a deck of cards at random';
    // Asked once first: this instance's sketches are built before the change.
    expect(await store.ncs(question)).not.toContain(store.ids.get('sorted'));

    // Another instance on the same store saves the answer; this one finds it.
    b = await startTestServer({}, { shareWith: a });
    const made = await new AssetsApi(b.sdk).assetsCreateNewAsset({
      seed: textSeed('import random\n\ndef deal(deck):\n    random.shuffle(deck)\n    return deck\n'),
      transferables: false,
    });
    expect((await store.ncs(question))[0]).toBe(made.id);
    expect((await store.relevance(question))[0]).toBe(made.id);

    // Its text changes (on this instance) to something else: no longer the nearest.
    const asset = (await http(a.baseUrl, 'GET', `/asset/${made.id}`)).json as { original: { id: string } };
    const format = (await http(a.baseUrl, 'GET', `/format/${asset.original.id}?transferable=true`)).json as Record<
      string,
      unknown
    >;
    const edited = { ...format, fragment: { string: { raw: 'def area(r):\n    return 3.14159 * r * r\n' } } };
    expect(
      (await http(a.baseUrl, 'POST', '/format/update/value?transferable=false', JSON.stringify(edited))).status,
    ).toBe(200);
    expect((await store.ncs(question))[0]).not.toBe(made.id);
    const vectors = await a.sql<{ asset_id: string }>(`SELECT asset_id FROM search_vectors`);
    expect(vectors.map((v) => v.asset_id).sort()).toEqual([...store.ids.values(), made.id].sort());

    // Deleted by the other instance: never returned again, its vector gone.
    await http(a.baseUrl, 'POST', `/format/update/value?transferable=false`, JSON.stringify(format)); // the shuffle back
    expect((await store.ncs(question))[0]).toBe(made.id);
    await new AssetsApi(b.sdk).assetsDeleteAsset({ asset: made.id });
    expect(await store.ncs(question)).not.toContain(made.id);
    expect(await store.relevance(question)).not.toContain(made.id);
    expect(
      await a.sql(`SELECT asset_id FROM search_vectors WHERE asset_id = ${a.config.databaseUrl ? '$1' : '?'}`, [
        made.id,
      ]),
    ).toEqual([]);
  });
});

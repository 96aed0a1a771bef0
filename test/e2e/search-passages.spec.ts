import { http } from './support/http';
import { Ranking, rankingStore } from './support/ranking';
import { TestServer, startTestServer } from './support/server';

/**
 * A query written as a sentence is a question about what code does: search orders its results
 * by their best passage as relevance scores passages (words, coverage, names, closeness in the
 * offline code embedding), and each result's score is that passage's (0..1). So the scores say how
 * well each result answers, not only where it came in a fused order (before: 0.99 for the answer,
 * 0.98 for code sharing no word with the question), and search and relevance agree on the answer.
 */
const SNIPPETS: Record<string, string> = {
  tally: 'from collections import Counter\n\ndef tally(text):\n    return Counter(text.lower().split())\n',
  split_string:
    'def split_string(s, sep=","):\n    """Split a string on a separator and strip each part."""\n    return [p.strip() for p in s.split(sep)]\n',
  word_count: 'def word_count(path):\n    with open(path) as f:\n        return len(f.read().split())\n',
  dedupe:
    'def unique(items):\n    seen = set()\n    out = []\n    for x in items:\n        if x not in seen:\n            seen.add(x)\n            out.append(x)\n    return out\n',
  remove_entries:
    'def remove_entries(entries, unwanted):\n    """Remove the unwanted entries from a list of entries."""\n    return [e for e in entries if e not in unwanted]\n',
  digest:
    "import hashlib\n\ndef digest(path):\n    h = hashlib.sha256()\n    with open(path, 'rb') as f:\n        for block in iter(lambda: f.read(65536), b''):\n            h.update(block)\n    return h.hexdigest()\n",
  read_lines: "def read_lines(path):\n    with open(path) as f:\n        return [line.rstrip('\\n') for line in f]\n",
  retry:
    'import time\n\ndef retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except Exception:\n            time.sleep(2 ** i)\n    return fn()\n',
  slug: "import re\n\ndef slugify(title):\n    return re.sub(r'[^a-z0-9]+', '-', title.lower()).strip('-')\n",
};

describe('search of a sentence: results by their best passage', () => {
  let server: TestServer;
  let store: Ranking;
  beforeAll(async () => {
    server = await startTestServer();
    store = await rankingStore(server, SNIPPETS);
  });
  afterAll(() => server.close());

  const searched = async (query: string, base: string) => {
    const res = await http(base, 'GET', `/assets/search?query=${encodeURIComponent(query)}&transferables=false`);
    expect(res.status).toBe(200);
    return (res.json as { iterable: Array<{ identifier: string; score: number }> }).iterable;
  };

  it.each([
    ['compute the checksum of a file', 'digest', []],
    ['read every line of a file into a list', 'read_lines', []],
    ['call a function again when it fails', 'retry', []],
    // (split_string and remove_entries also turn strings into strings)
    ['turn a title into a url friendly string', 'slug', ['split_string', 'remove_entries']],
  ])(
    '"%s": %s first, scored well above code that does something else, as relevance ranks it',
    async (question, expected, related) => {
      const hits = await searched(question, server.baseUrl);
      expect(hits[0].identifier).toBe(store.ids.get(expected));
      expect((await store.relevance(question))[0]).toBe(store.ids.get(expected));
      const scores = hits.map((h) => h.score);
      for (const s of scores) expect(s > 0 && s <= 1).toBe(true);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
      // The rest trails the answer (before, every result scored within a few hundredths of it).
      const exempt = new Set([expected, ...related].map((k) => store.ids.get(k)));
      for (const h of hits.filter((x) => !exempt.has(x.identifier))) expect(h.score).toBeLessThan(0.6 * scores[0]);
    },
  );

  it('a name looked up alone is not a sentence: ranked by the words, as before', async () => {
    const hits = await searched('slugify', server.baseUrl);
    expect(hits.map((h) => h.identifier)).toEqual([store.ids.get('slug')]);
  });
});

import { AssetsApi, ConversationsApi } from '@pieces.app/pieces-os-client';
import { expectError, http } from './support/http';
import { textSeed } from './support/seeds';
import { useTestServer } from './support/server';
import { StreamClient } from './support/ws';
import { expectWire } from './support/wire';

/**
 * Collection snapshots are streamed a page at a time (issue 24): what a Pieces client reads is
 * the same JSON as before, whatever the store's size, and Trove's own clients may page with
 * `limit` and `cursor`. More assets than one page of the walk (100 assets), many created in the
 * same millisecond, so the order's tie-break on the id is exercised too.
 */
const ASSETS = 230;

async function createMany(baseUrl: string, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, count - start) }, async (_, i) => {
        const res = await http(
          baseUrl,
          'POST',
          '/assets/create?transferables=false',
          textSeed(`const ${label}${start + i} = ${start + i}; // listing`, { name: `${label} ${start + i}` }),
        );
        expect(res.status).toBe(200);
        return res.json.id as string;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

/** Every page of `path` walked with `limit`, following next_cursor; the pages' bodies. */
async function walkPages(baseUrl: string, path: string, limit: number): Promise<any[]> {
  const pages: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await http(baseUrl, 'GET', `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    pages.push(res.json);
    cursor = res.json.next_cursor;
    expect(pages.length).toBeLessThan(1000);
  } while (cursor);
  return pages;
}

describe('streamed collection snapshots', () => {
  const server = useTestServer({ TROVE_RATE_LIMIT: '0' });
  let created: string[];

  beforeAll(async () => {
    created = await createMany(server.baseUrl, ASSETS, 'listed');
  }, 120_000);

  it('an empty collection is still a complete body', async () => {
    const conversations = await http(server.baseUrl, 'GET', '/conversations');
    expect(conversations.json).toEqual({ iterable: [] });
    const pseudo = await http(server.baseUrl, 'GET', '/assets/pseudo');
    expect(pseudo.json).toEqual({ identifiers: { iterable: [], indices: {} } });
  });

  it('GET /assets streams every asset, most recent first, as the SDK reads it', async () => {
    const res = await fetch(`${server.baseUrl}/assets`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const body = await res.json();
    expect(body.iterable).toHaveLength(ASSETS);
    expect(new Set(body.iterable.map((a: { id: string }) => a.id))).toEqual(new Set(created));
    for (const asset of body.iterable.slice(0, 3)) expectWire('Asset', asset);
    // Most recent first, ties by id (descending), as every listing orders them.
    const keys = body.iterable.map((a: any) => [a.created.value, a.id]);
    const sorted = [...keys].sort((x, y) => (x[0] === y[0] ? (x[1] < y[1] ? 1 : -1) : x[0] < y[0] ? 1 : -1));
    expect(keys).toEqual(sorted);

    const sdk = await new AssetsApi(server.sdk).assetsSnapshot({ transferables: false });
    expect(sdk.iterable.map((a) => a.id)).toEqual(body.iterable.map((a: { id: string }) => a.id));
    expect(sdk.iterable[0].formats.iterable[0].fragment).toBeUndefined();
  });

  it('GET /assets/identifiers streams the ids with their positions in indices', async () => {
    const all = (await http(server.baseUrl, 'GET', '/assets')).json.iterable.map((a: { id: string }) => a.id);
    const res = await http(server.baseUrl, 'GET', '/assets/identifiers');
    expect(res.json.iterable).toEqual(all.map((id: string) => ({ id })));
    expect(res.json.indices).toEqual(Object.fromEntries(all.map((id: string, i: number) => [id, i])));
    const sdk = await new AssetsApi(server.sdk).assetsIdentifiersSnapshot({});
    expect(sdk.iterable!.map((a) => a.id)).toEqual(all);
  });

  it('pages with limit and cursor: the pages are the stream, each once, in order', async () => {
    const all = (await http(server.baseUrl, 'GET', '/assets?transferables=false')).json.iterable.map(
      (a: { id: string }) => a.id,
    );
    const pages = await walkPages(server.baseUrl, '/assets?transferables=false', 37);
    expect(pages.map((p) => p.iterable.length)).toEqual([37, 37, 37, 37, 37, 37, 8]);
    expect(pages.flatMap((p) => p.iterable.map((a: { id: string }) => a.id))).toEqual(all);
    expect(pages[pages.length - 1].next_cursor).toBeNull();
    expect(pages[0].iterable[0].formats.iterable[0].fragment).toBeUndefined();

    const idPages = await walkPages(server.baseUrl, '/assets/identifiers', 100);
    expect(idPages.map((p) => p.iterable.length)).toEqual([100, 100, 30]);
    expect(idPages.flatMap((p) => p.iterable.map((a: { id: string }) => a.id))).toEqual(all);
    // Positions within the page.
    expect(Object.values(idPages[1].indices)).toEqual(Array.from({ length: 100 }, (_, i) => i));

    // A cursor alone: the default page of 100.
    const second = await http(server.baseUrl, 'GET', `/assets/identifiers?cursor=${idPages[0].next_cursor}`);
    expect(second.json.iterable).toEqual(idPages[1].iterable);
  });

  it('a page walk neither repeats nor skips when records are created or deleted between pages', async () => {
    const first = await http(server.baseUrl, 'GET', '/assets/identifiers?limit=50');
    const cursor = first.json.next_cursor;
    const before = (await http(server.baseUrl, 'GET', '/assets/identifiers')).json.iterable.map(
      (a: { id: string }) => a.id,
    );
    // Newer records: not in the rest of this walk. A deleted one not reached yet: left out.
    const fresh = await createMany(server.baseUrl, 3, 'between');
    const victim = before[120];
    expect((await http(server.baseUrl, 'POST', `/assets/${victim}/delete`)).status).toBe(200);
    let rest: string[] = [];
    let next = cursor;
    while (next) {
      const page = await http(server.baseUrl, 'GET', `/assets/identifiers?limit=50&cursor=${next}`);
      rest = rest.concat(page.json.iterable.map((a: { id: string }) => a.id));
      next = page.json.next_cursor;
    }
    expect(rest).toEqual(before.slice(50).filter((id: string) => id !== victim));
    expect(rest.filter((id) => fresh.includes(id))).toEqual([]);
    created = created.filter((id) => id !== victim).concat(fresh);
  });

  it('conversations stream and page too', async () => {
    const api = new ConversationsApi(server.sdk);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(
        (
          await api.conversationsCreateSpecificConversation({
            seededConversation: { type: 'COPILOT', name: `talk ${i}` } as never,
          })
        ).id,
      );
    const streamed = await api.conversationsSnapshot({});
    expect(new Set(streamed.iterable.map((c) => c.id))).toEqual(new Set(ids));
    for (const conversation of (await http(server.baseUrl, 'GET', '/conversations')).json.iterable)
      expectWire('Conversation', conversation);
    const pages = await walkPages(server.baseUrl, '/conversations', 3);
    expect(pages.map((p) => p.iterable.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.iterable.map((c: { id: string }) => c.id))).toEqual(
      streamed.iterable.map((c) => c.id),
    );
    const idPages = await walkPages(server.baseUrl, '/conversations/identifiers', 4);
    expect(idPages.flatMap((p) => p.iterable.map((c: { id: string }) => c.id))).toEqual(
      streamed.iterable.map((c) => c.id),
    );
    expect((await http(server.baseUrl, 'GET', '/conversations/identifiers')).json).toEqual({
      iterable: streamed.iterable.map((c) => ({ id: c.id })),
    });
  });

  it('a bad limit or cursor is a 400 with a JSON error', async () => {
    for (const query of [
      'limit=0',
      'limit=1001',
      'limit=ten',
      'limit=-5',
      'limit=1.5',
      'cursor=%%%',
      'cursor=bm90IGEgY3Vyc29y',
      'limit=1&limit=2',
    ]) {
      expectError(await http(server.baseUrl, 'GET', `/assets?${query}`), 400, /limit|cursor/);
      expectError(await http(server.baseUrl, 'GET', `/conversations/identifiers?${query}`), 400, /limit|cursor/);
    }
  });

  it('the assets streams send a first frame larger than one page in fragments of one message, then go live', async () => {
    const ids = (await http(server.baseUrl, 'GET', '/assets/identifiers')).json.iterable.map(
      (a: { id: string }) => a.id,
    );
    expect(ids.length).toBeGreaterThan(200); // several pages of the walk
    const client = await StreamClient.open(server.baseUrl, '/assets/stream?ids=true');
    const first = await client.next<{ iterable: Array<{ id: string }>; event_id: number }>(15000);
    expect(first.iterable.map((a) => a.id)).toEqual(ids);
    expect(Number.isInteger(first.event_id)).toBe(true);
    const [fresh] = await createMany(server.baseUrl, 1, 'live');
    const change = await client.next<{ iterable: Array<{ id: string }>; event_id: number }>(10000);
    expect(change.iterable[0].id).toBe(fresh);
    expect(change.event_id).toBeGreaterThan(first.event_id);
    client.close();

    const identifiers = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers');
    const frame = await identifiers.next<{ iterable: Array<{ asset: { id: string } }> }>(15000);
    expect(frame.iterable.map((i) => i.asset.id)).toEqual([fresh, ...ids]);
    identifiers.close();
  });
});

import { AssetsApi } from '@pieces.app/pieces-os-client';
import { Database } from '../../src/common/database/database.service';
import { Commits } from '../../src/common/events/commits';
import { Outbox } from '../../src/common/events/outbox';
import { textSeed } from './support/seeds';

/** A text seed with its language given: no provisional label refined (and announced) later. */
const seed = (raw: string) => {
  const base = textSeed(raw);
  return {
    ...base,
    asset: {
      ...base.asset!,
      format: { fragment: { string: { raw } }, classification: { generic: 'TEXT', specific: 'txt' } },
    },
  } as typeof base;
};
import { TestServer, startTestServer } from './support/server';
import { StreamClient } from './support/ws';

/**
 * Several instances on one database (PostgreSQL under `npm run test:pg`, one SQLite file
 * otherwise): a change made through one reaches the subscribers of every other, in the one
 * order of the outbox. Wake-ups between instances: LISTEN/NOTIFY on PostgreSQL, Redis on
 * SQLite (both instances get TROVE_REDIS_URL). The poll is set to a minute so that a frame
 * within seconds proves the wake-up path.
 */
describe('change streams across instances on one database', () => {
  let a: TestServer;
  let b: TestServer;
  const wakeups = { TROVE_STREAM_POLL_MS: '60000', TROVE_REDIS_URL: 'redis://127.0.0.1:6379' };
  beforeAll(async () => {
    a = await startTestServer(wakeups);
    b = await startTestServer(wakeups, { shareWith: a });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a change made through instance A reaches a subscriber of instance B at once', async () => {
    const onB = await StreamClient.open(b.baseUrl, '/assets/stream/identifiers');
    await onB.next();
    const started = Date.now();
    const created = await new AssetsApi(a.sdk).assetsCreateNewAsset({ seed: seed('made on A') });
    expect(await onB.next(3000)).toEqual({ iterable: [{ asset: { id: created.id } }] });
    expect(Date.now() - started).toBeLessThan(3000);
    await new AssetsApi(b.sdk).assetsDeleteAsset({ asset: created.id });
    expect(await onB.next(3000)).toEqual({ iterable: [{ asset: { id: created.id }, deleted: true }] });
    onB.close();
  });

  it('concurrent changes through both instances reach every subscriber complete and in the same order', async () => {
    // On PostgreSQL the writes race on both instances; on SQLite they race on A.
    const subscribers = await Promise.all(
      [a, b, a, b].map((s) => StreamClient.open(s.baseUrl, '/assets/stream/identifiers?ids=true')),
    );
    const heads = await Promise.all(subscribers.map((s) => s.next()));
    const start = heads[0].event_id;
    expect(heads.map((h) => h.event_id)).toEqual(heads.map(() => start));
    const perInstance = 15;
    const create = (s: TestServer, i: number) =>
      new AssetsApi(s.sdk).assetsCreateNewAsset({ seed: seed(`concurrent ${s.baseUrl} ${i}`) });
    let made;
    if (a.config.databaseUrl) {
      // PostgreSQL: truly concurrent transactions on both instances (ids may be drawn in one
      // order and committed in another without the outbox lock).
      made = await Promise.all([a, b].flatMap((s) => Array.from({ length: perInstance }, (_, i) => create(s, i))));
    } else {
      // SQLite: one file is written by one instance at a time (two writers get SQLITE_BUSY);
      // every change goes through A and must reach the subscribers of both.
      made = await Promise.all(Array.from({ length: 2 * perInstance }, (_, i) => create(a, i)));
    }
    const rows = await a.sql<{ id: number; entity_id: string }>(
      `SELECT id, entity_id FROM stream_events WHERE id > ${start} AND topic = 'assets' ORDER BY id`,
    );
    expect(rows).toHaveLength(made.length);
    const expected = rows.map((r) => ({ iterable: [{ asset: { id: r.entity_id } }], event_id: Number(r.id) }));
    for (const subscriber of subscribers) {
      const frames = (await subscriber.take(made.length, 15000)).filter((f) => f.event_id > start);
      expect(frames).toEqual(expected);
      await subscriber.quiet(200);
      subscriber.close();
    }
    expect(new Set(made.map((m) => m.id))).toEqual(new Set(rows.map((r) => r.entity_id)));
  });

  it('an event that commits late is not skipped: a later append waits for the earlier one to commit', async () => {
    const onB = await StreamClient.open(b.baseUrl, '/conversations/stream/identifiers?ids=true');
    await onB.next();
    // PostgreSQL: the two transactions run on two instances (two pools); SQLite: both on A
    // (one writer per file).
    const second = a.config.databaseUrl ? b : a;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const early = a.app.get(Database).transaction(async (em) => {
      await a.app.get(Outbox).appendMany(em, [{ topic: 'conversations', id: 'early-event' }]);
      await gate; // holds its id, not yet committed
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    let lateDone = false;
    const late = second.app
      .get(Database)
      .transaction((em) => second.app.get(Outbox).appendMany(em, [{ topic: 'conversations', id: 'late-event' }]))
      .then(() => (lateDone = true));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(lateDone).toBe(false); // it waits for the open append to finish
    release();
    await Promise.all([early, late]);
    // What a unit of work does after its commit (these appends bypass one): the wake-up signal.
    for (const server of new Set([a, second])) server.app.get(Commits).committed();
    const frames = await onB.take(2, 5000);
    expect(frames.map((f) => f.iterable[0].conversation.id)).toEqual(['early-event', 'late-event']);
    expect(frames[1].event_id).toBeGreaterThan(frames[0].event_id);
    onB.close();
  });

  it('without any wake-up (no Redis, no NOTIFY reaching it) a third instance still delivers through its poll', async () => {
    const c = await startTestServer({ TROVE_STREAM_POLL_MS: '200' }, { shareWith: a });
    try {
      const onC = await StreamClient.open(c.baseUrl, '/assets/stream/identifiers');
      await onC.next();
      const created = await new AssetsApi(a.sdk).assetsCreateNewAsset({ seed: seed('polled') });
      expect(await onC.next(3000)).toEqual({ iterable: [{ asset: { id: created.id } }] });
      onC.close();
    } finally {
      await c.close();
    }
  });
});

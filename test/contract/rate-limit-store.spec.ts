import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimitState, RateLimitStore, localRateLimitStore } from '../../src/common/http/rate-limit-store';

/**
 * Contract of src/common/http/rate-limit-store.ts: @fastify/rate-limit's in-memory store, loaded
 * from the package's internal file `store/LocalStore.js`, counts as TroveWsAdapter expects. A
 * failure here after an upgrade names the property that changed: fix the adapter, not its callers.
 */
describe('contract: rate-limit-store.ts (@fastify/rate-limit store/LocalStore)', () => {
  const incr = (store: RateLimitStore, key: string, windowMs: number, max: number) =>
    new Promise<RateLimitState>((resolve, reject) =>
      store.incr(key, (error, state) => (error ? reject(error) : resolve({ ...state })), windowMs, max),
    );

  it('loads the store file and counts the hits of a key in its window: 1, 2, 3, with the ttl left of the window', async () => {
    const store = localRateLimitStore(10);
    const hits = [
      await incr(store, 'k', 60_000, 5),
      await incr(store, 'k', 60_000, 5),
      await incr(store, 'k', 60_000, 5),
    ];
    expect(hits.map((h) => h.current)).toEqual([1, 2, 3]);
    for (const hit of hits) {
      expect(hit.ttl).toBeGreaterThan(59_000);
      expect(hit.ttl).toBeLessThanOrEqual(60_000);
    }
  });

  it('counts each key on its own', async () => {
    const store = localRateLimitStore(10);
    await incr(store, 'a', 60_000, 5);
    await incr(store, 'a', 60_000, 5);
    expect((await incr(store, 'b', 60_000, 5)).current).toBe(1);
    expect((await incr(store, 'a', 60_000, 5)).current).toBe(3);
  });

  it('hits past max neither extend nor restart the window (continueExceeding and exponentialBackoff off: the constructor arguments), and the window then resets to 1', async () => {
    const store = localRateLimitStore(10);
    const windowMs = 1000;
    const first = await incr(store, 'k', windowMs, 2);
    const states: RateLimitState[] = [];
    for (let i = 0; i < 4; i++) {
      await sleep(20);
      states.push(await incr(store, 'k', windowMs, 2));
    }
    expect(states.map((s) => s.current)).toEqual([2, 3, 4, 5]);
    // Past max the ttl keeps running down from the first hit: no new window, no backoff.
    let previous = first.ttl;
    for (const state of states) {
      expect(state.ttl).toBeLessThan(previous);
      previous = state.ttl;
    }
    await sleep(previous + 50);
    const next = await incr(store, 'k', windowMs, 2);
    expect(next.current).toBe(1);
    expect(next.ttl).toBe(windowMs);
  });

  it('keeps at most `size` keys, dropping the least recently used', async () => {
    const store = localRateLimitStore(2);
    await incr(store, 'a', 60_000, 5);
    await incr(store, 'a', 60_000, 5);
    await incr(store, 'b', 60_000, 5);
    await incr(store, 'c', 60_000, 5); // a was used least recently: dropped
    expect((await incr(store, 'c', 60_000, 5)).current).toBe(2);
    expect((await incr(store, 'a', 60_000, 5)).current).toBe(1);
  });
});

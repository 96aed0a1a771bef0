/**
 * @fastify/rate-limit's in-memory store, for what its plugin cannot see: WebSocket upgrades,
 * which bypass Fastify's routes (TroveWsAdapter counts the upgrades of `/qgpt/stream` with it),
 * so that they are counted exactly as the HTTP limiter counts requests.
 *
 * What is relied on: the package does not export the store from its entry point, so its file
 * `store/LocalStore.js` is loaded directly: a constructor `(continueExceeding,
 * exponentialBackoff, size)` whose `incr(key, callback, windowMs, max)` calls back with the
 * key's count in the current window (the first hit opens a window of `windowMs`; hits past
 * `max` neither extend nor restart it with both flags off) and its remaining `ttl` in ms, and
 * which keeps at most `size` keys (least recently used dropped). `test/contract/rate-limit-store.spec.ts`
 * checks exactly that, so an upgrade that moves or changes the file fails there, by name.
 */

export interface RateLimitState {
  /** Hits of the key in its current window, this one included. */
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

export interface RateLimitStore {
  incr(
    key: string,
    callback: (error: Error | null, state: RateLimitState) => void,
    windowMs: number,
    max: number,
  ): void;
}

type LocalStoreClass = new (continueExceeding: boolean, exponentialBackoff: boolean, size: number) => RateLimitStore;

function loadLocalStore(): LocalStoreClass {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('@fastify/rate-limit/store/LocalStore') as LocalStoreClass;
  } catch (error) {
    throw new Error(
      `@fastify/rate-limit/store/LocalStore cannot be loaded (${(error as Error).message}): see src/common/http/rate-limit-store.ts and test/contract/rate-limit-store.spec.ts`,
      { cause: error },
    );
  }
}

const LocalStore = loadLocalStore();

/** A fixed-window counter per key (no extension past the limit, no backoff), remembering at most `size` keys. */
export function localRateLimitStore(size: number): RateLimitStore {
  return new LocalStore(false, false, size);
}

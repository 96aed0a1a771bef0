import { DomainError } from '../../../common/errors/domain-errors';

/** What can go wrong with a provider, as a domain error kind (its status: STATUS_OF). */
export type ProviderErrorKind = 'unauthorized' | 'rate-limited' | 'not-found' | 'unavailable' | 'upstream-failed';

/**
 * A provider failed. The kind decides what our client gets: the provider's 401 (bad key,
 * `unauthorized`), 429 (rate limit, with its Retry-After: `rate-limited`) and 503 (overloaded,
 * or not reachable at all: `unavailable`) keep their meaning; a model the provider does not have
 * is `not-found` (404); anything else `upstream-failed` (502).
 */
export class ProviderError extends DomainError {
  constructor(kind: ProviderErrorKind, message: string, retryAfter?: string) {
    super(kind, message, retryAfter);
  }

  /** Maps a provider's HTTP error response. */
  static async fromResponse(label: string, response: Response): Promise<ProviderError> {
    let detail = '';
    try {
      const text = (await response.text()).slice(0, 2000);
      try {
        const json = JSON.parse(text) as { error?: string | { message?: string }; message?: string };
        detail = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message ?? text);
      } catch {
        detail = text;
      }
    } catch {
      // the body is gone: the status says enough
    }
    const suffix = detail ? `: ${detail.trim().slice(0, 300)}` : '';
    const s = response.status;
    if (s === 401 || s === 403)
      return new ProviderError('unauthorized', `${label} refused the credentials (HTTP ${s})${suffix}`);
    if (s === 429)
      return new ProviderError(
        'rate-limited',
        `${label} is rate limiting requests (HTTP 429)${suffix}`,
        response.headers.get('retry-after') ?? undefined,
      );
    if (s === 404) return new ProviderError('not-found', `${label} does not have that model (HTTP 404)${suffix}`);
    if (s === 503 || s === 529 || s === 502 || s === 504 || s === 500) {
      return new ProviderError(
        'unavailable',
        `${label} is overloaded or failing (HTTP ${s})${suffix}`,
        response.headers.get('retry-after') ?? undefined,
      );
    }
    return new ProviderError('upstream-failed', `${label} answered HTTP ${s}${suffix}`);
  }

  /** Maps a network failure (refused, reset, timed out). */
  static unreachable(label: string, error: unknown): ProviderError | Error {
    const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    if (e?.name === 'AbortError' && !(e as { timeout?: boolean }).timeout) return error as Error;
    if (e?.name === 'TimeoutError') return new ProviderError('unavailable', `${label} did not answer in time`);
    const why = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
    return new ProviderError('unavailable', `${label} is not reachable (${why}); is it running?`);
  }
}

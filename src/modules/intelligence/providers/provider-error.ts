import { HttpException } from '@nestjs/common';

/**
 * A provider failed. The status is what our client gets: the provider's 401 (bad key),
 * 429 (rate limit, with its Retry-After) and 503 (overloaded, or not reachable at all)
 * keep their meaning; a model the provider does not have is a 404; anything else a 502.
 */
export class ProviderError extends HttpException {
  constructor(
    status: number,
    message: string,
    readonly retryAfter?: string,
  ) {
    super(message, status);
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
    if (s === 401 || s === 403) return new ProviderError(401, `${label} refused the credentials (HTTP ${s})${suffix}`);
    if (s === 429) return new ProviderError(429, `${label} is rate limiting requests (HTTP 429)${suffix}`, response.headers.get('retry-after') ?? undefined);
    if (s === 404) return new ProviderError(404, `${label} does not have that model (HTTP 404)${suffix}`);
    if (s === 503 || s === 529 || s === 502 || s === 504 || s === 500) {
      return new ProviderError(503, `${label} is overloaded or failing (HTTP ${s})${suffix}`, response.headers.get('retry-after') ?? undefined);
    }
    return new ProviderError(502, `${label} answered HTTP ${s}${suffix}`);
  }

  /** Maps a network failure (refused, reset, timed out). */
  static unreachable(label: string, error: unknown): ProviderError | Error {
    const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    if (e?.name === 'AbortError' && !(e as { timeout?: boolean }).timeout) return error as Error;
    if (e?.name === 'TimeoutError') return new ProviderError(503, `${label} did not answer in time`);
    const why = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
    return new ProviderError(503, `${label} is not reachable (${why}); is it running?`);
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}

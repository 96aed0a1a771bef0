import { ProviderError } from './provider-error';

/** How a provider sends requests: the guarded OutboundHttp in the app (redirects to private addresses refused). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** A JSON request to a provider, with a time limit and the caller's abort signal; HTTP errors become ProviderErrors. */
export async function providerFetch(
  send: Fetch,
  label: string,
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal; timeoutMs: number },
): Promise<Response> {
  const signals = [AbortSignal.timeout(init.timeoutMs), ...(init.signal ? [init.signal] : [])];
  let response: Response;
  try {
    response = await send(url, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        accept: 'application/json',
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    throw ProviderError.unreachable(label, error);
  }
  if (!response.ok) throw await ProviderError.fromResponse(label, response);
  return response;
}

export async function providerJson<T>(
  send: Fetch,
  label: string,
  url: string,
  init: Parameters<typeof providerFetch>[3],
): Promise<T> {
  const response = await providerFetch(send, label, url, init);
  try {
    return (await response.json()) as T;
  } catch (error) {
    throw ProviderError.unreachable(label, error);
  }
}

/** The lines of a streamed body (NDJSON), as they arrive. */
export async function* lines(label: string, response: Response): AsyncGenerator<string> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        yield line;
      }
    }
  } catch (error) {
    throw ProviderError.unreachable(label, error);
  }
  buffer += decoder.decode();
  if (buffer) yield buffer;
}

/** Server-sent events of a streamed body: the `data` of each event (multi-line data joined by \n). */
export async function* sseData(label: string, response: Response): AsyncGenerator<string> {
  let data: string[] = [];
  for await (const line of lines(label, response)) {
    if (line === '') {
      if (data.length) yield data.join('\n');
      data = [];
    } else if (line.startsWith('data:')) {
      data.push(line.slice(5).replace(/^ /, ''));
    }
    // comments (":"), event:, id:, retry: carry nothing we use
  }
  if (data.length) yield data.join('\n');
}

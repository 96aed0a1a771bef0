import { request as httpRequest } from 'node:http';

/** Raw HTTP for what an SDK will not send: malformed JSON, wrong types, unknown fields. */
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function http(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as string) : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, init);
  return rawResponse(response.status, response.headers, await response.text());
}

/** A response as RawResponse: the body also parsed as JSON when it is JSON. */
/**
 * A snippet's text replaced as `pieces modify` and the plugins do it: the original format read back
 * (`GET /format/{id}?transferable=true`) and written with the new text (`POST /format/update/value`).
 */
export async function editText(baseUrl: string, assetId: string, raw: string): Promise<RawResponse> {
  const asset = (await http(baseUrl, 'GET', `/asset/${assetId}`)).json;
  const format = (await http(baseUrl, 'GET', `/format/${asset.original.id}?transferable=true`)).json;
  return http(
    baseUrl,
    'POST',
    '/format/update/value?transferable=false',
    JSON.stringify({ ...format, fragment: { string: { raw } } }),
  );
}

export function rawResponse(status: number, headers: Headers | Record<string, string>, text: string): RawResponse {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers: headers instanceof Headers ? headers : new Headers(headers), text, json };
}

/** Asserts the one JSON error shape `{statusCode, error, message}` with the given status. */
export function expectError(response: RawResponse, status: number, message?: RegExp): void {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.json).toEqual(
    expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.anything() }),
  );
  if (message) expect(JSON.stringify(response.json.message)).toMatch(message);
}

/** The HTTP status an SDK call ended with: 200 when it resolved, the response status when it threw. */
export async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    const response = (error as { response?: Response }).response;
    if (response) return response.status;
    throw error;
  }
}

/**
 * A raw request through node:http, which (unlike fetch) can send a body with GET and any
 * Host or Origin header.
 */
export function nodeRequest(
  url: string,
  method: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  return new Promise((resolve, reject) => {
    const lengths =
      body !== undefined
        ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
        : {};
    // The path goes out exactly as given (a URL object would resolve `.` and `..` segments).
    const [, origin, path] = /^(https?:\/\/[^/]+)(.*)$/.exec(url)!;
    const { hostname, port } = new URL(origin);
    const req = httpRequest(
      { hostname, port, path: path || '/', method, headers: { ...lengths, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers as Record<string, string>,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

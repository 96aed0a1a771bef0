/** Explicit bounds on a parsed JSON body, beyond its size in bytes. */
export interface JsonBounds {
  maxDepth: number;
  maxArrayLength: number;
  maxStringLength: number;
  /**
   * Leave NUL characters and lone surrogates to the route (MCP: its tools refuse them per
   * argument, as MCP errors, instead of the whole message being a 400).
   */
  textLeftToRoute?: boolean;
}

/** An HTTP error Fastify's error path and our exception filter both understand. */
export class BodyBoundError extends Error {
  constructor(
    readonly statusCode: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

/** Text is stored as text on both dialects, and PostgreSQL text cannot hold U+0000. */
const NUL_MESSAGE = 'JSON strings must not contain NUL (U+0000) characters';
/** A lone surrogate (`"\ud800"`) cannot be stored as UTF-8: it would be replaced, silently changing the text. */
const SURROGATE_MESSAGE =
  'JSON strings must be well-formed Unicode: a lone surrogate escape (such as \\ud800) has no UTF-8 form';

/** String.prototype.isWellFormed (Node 20; ES2024, beyond this project's TS lib). */
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Decodes a JSON body as UTF-8, refusing invalid byte sequences instead of replacing them with U+FFFD. */
export function decodeUtf8(body: Buffer): string {
  try {
    return strictUtf8.decode(body);
  } catch {
    throw new BodyBoundError(400, 'the body is not valid UTF-8');
  }
}
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Walks a parsed body once (iteratively: a hostile nesting cannot overflow the stack) and
 * throws BodyBoundError for the first bound it breaks. Object keys count as strings.
 */
export function checkJsonBounds(value: unknown, bounds: JsonBounds): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.length > bounds.maxStringLength) {
        throw new BodyBoundError(413, `a JSON string is longer than ${bounds.maxStringLength} characters`);
      }
      if (bounds.textLeftToRoute) continue;
      if (node.includes('\u0000')) throw new BodyBoundError(400, NUL_MESSAGE);
      if (!wellFormed(node)) throw new BodyBoundError(400, SURROGATE_MESSAGE);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth > bounds.maxDepth) throw new BodyBoundError(400, `JSON is nested deeper than ${bounds.maxDepth} levels`);
    if (Array.isArray(node)) {
      if (node.length > bounds.maxArrayLength) {
        throw new BodyBoundError(413, `a JSON array has more than ${bounds.maxArrayLength} items`);
      }
      for (const item of node) stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(node)) {
      if (key.length > bounds.maxStringLength) {
        throw new BodyBoundError(413, `a JSON key is longer than ${bounds.maxStringLength} characters`);
      }
      if (!bounds.textLeftToRoute && key.includes('\u0000')) throw new BodyBoundError(400, NUL_MESSAGE);
      if (!bounds.textLeftToRoute && !wellFormed(key)) throw new BodyBoundError(400, SURROGATE_MESSAGE);
      stack.push([item, depth + 1]);
    }
  }
}

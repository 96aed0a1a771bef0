import { ErrorBody, errorBody } from '../errors/error-body';
import { SDK_OPERATIONS, SdkOperation } from '../wire/sdk-operations';
import { whyNotOffered } from './not-offered';

interface Compiled {
  op: SdkOperation;
  /** Literal segments, null where the template has a parameter. */
  segments: Array<string | null>;
}

/** A path's segments without the empty ones a leading or trailing slash makes (routes ignore the trailing slash). */
function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment, i, all) => segment !== '' || (i > 0 && i < all.length - 1));
}

/**
 * The operations of the official SDK by method and path, for requests no route of Trove's
 * answered: a path matches a template segment by segment, a parameter matching any one
 * non-empty segment, and of several matches the one with the most literal segments (the first
 * literal ones first) wins, as Fastify's router prefers static routes.
 */
export class SdkOperationIndex {
  private readonly byShape = new Map<string, Compiled[]>();

  constructor(operations: readonly SdkOperation[] = SDK_OPERATIONS) {
    for (const op of operations) {
      const segments = segmentsOf(op.path).map((s) => (s.startsWith('{') ? null : s));
      const key = `${op.method} ${segments.length}`;
      const list = this.byShape.get(key) ?? [];
      list.push({ op, segments });
      this.byShape.set(key, list);
    }
  }

  /** The SDK operation a request names (HEAD as GET), or null. `path` is the request's path, without its query. */
  match(method: string, path: string): SdkOperation | null {
    const segments = segmentsOf(path);
    const verb = method === 'HEAD' ? 'GET' : method;
    let best: Compiled | null = null;
    let bestRank = '';
    for (const candidate of this.byShape.get(`${verb} ${segments.length}`) ?? []) {
      let rank = '';
      let matches = true;
      for (let i = 0; i < segments.length && matches; i++) {
        const literal = candidate.segments[i];
        if (literal === null) {
          matches = segments[i] !== '';
          rank += '0';
        } else {
          matches = literal === segments[i];
          rank += '1';
        }
      }
      if (matches && (best === null || rank > bestRank)) {
        best = candidate;
        bestRank = rank;
      }
    }
    return best?.op ?? null;
  }
}

/** The JSON 501 of an SDK operation Trove does not serve: it names the operation and says why. */
export function notImplementedBody(op: SdkOperation): ErrorBody {
  const reason = whyNotOffered(op) ?? 'Trove does not serve it';
  return errorBody(
    501,
    `${op.operationId} (${op.method} ${op.path}, ${op.api} in the Pieces SDK) is not offered by Trove: ${reason}.`,
  );
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** What a request no route answered gets: a 405 naming the methods the path has, a 501 for an SDK operation, else a 404. */
export interface UnservedAnswer {
  body: ErrorBody;
  allow?: string;
}

/**
 * The answer to a request no route of Trove's took: an SDK operation Trove does not serve is
 * a 501 that names it and says why; a path Trove serves under other methods is a 405 with
 * `Allow`; anything else is the JSON 404 it always was. `served(method)` says whether a route
 * answers the request's path for `method`.
 */
export function unservedAnswer(
  index: SdkOperationIndex,
  method: string,
  path: string,
  served: (method: string) => boolean,
): UnservedAnswer {
  const op = index.match(method, path);
  if (op) return { body: notImplementedBody(op) };
  const allowed = METHODS.filter((m) => m !== method && served(m));
  if (allowed.length) {
    return {
      body: errorBody(405, `${method} is not a method of ${path}: it answers ${allowed.join(', ')}`),
      allow: allowed.join(', '),
    };
  }
  return { body: errorBody(404, `Cannot ${method} ${path}: no such route`) };
}

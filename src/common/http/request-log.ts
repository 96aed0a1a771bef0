import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A client's X-Request-Id kept as the request's id: a short token that is safe as is in a log line and a header. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Fastify's genReqId: the client's `X-Request-Id` when it is a short safe token (a proxy's or a
 * client's own id, so their logs and ours name the same request), else a fresh UUID (unique
 * across instances, unlike Fastify's default counter).
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Fields a JSON log line carries beside its message (TroveLogger writes them at the top level of
 * the line). Whoever builds one puts in it only what may be logged: never a body, a query
 * string, a header's value or a key.
 */
export class LogFields {
  constructor(
    readonly message: string,
    readonly fields: Record<string, string | number | null>,
  ) {}
}

/**
 * One answered request's log line (TROVE_LOG_FORMAT=json). `route` is its route template
 * (`/asset/:asset`) or `unmatched`, never the path, which holds ids and may hold text; `user` is
 * who asked as the access policy names it (`key:<identity>`, `metrics`, `local`, `anonymous`).
 */
export function requestLine(request: FastifyRequest, reply: FastifyReply, route: string, user: string): LogFields {
  return new LogFields(`${request.method} ${route} ${reply.statusCode}`, {
    requestId: request.id,
    method: request.method,
    route,
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
    remoteAddress: request.ip,
    user,
  });
}

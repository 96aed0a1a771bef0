import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DomainError } from './domain-errors';
import { ErrorBody, errorBody, isStorageUnavailable } from './error-body';

/**
 * Turns anything thrown while handling a request (HTTP, WebSocket, MCP) into
 * `{statusCode, error, message}`: a DomainError by its kind, an HttpException (the edges:
 * guards, pipes, Fastify) by its status; a storage failure is a 503, anything else a logged 500.
 */
export function toErrorBody(exception: unknown, logger: Logger): ErrorBody {
  if (exception instanceof DomainError) return errorBody(exception.status, exception.messages);
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const message =
      typeof response === 'string'
        ? response
        : ((response as { message?: string | string[] }).message ?? exception.message);
    // Fastify's own errors (mapped by Nest) carry codes; say what to do instead.
    if (status === 415) return errorBody(status, 'unsupported Content-Type: send application/json');
    return errorBody(status, message);
  }
  const fastifyStatus = (exception as { statusCode?: number })?.statusCode;
  if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) {
    return errorBody(fastifyStatus, (exception as Error).message);
  }
  if (isStorageUnavailable(exception)) {
    logger.error(`storage unavailable: ${(exception as Error)?.message}`);
    return errorBody(503, 'storage is unavailable; nothing was written, retry later');
  }
  logger.error((exception as Error)?.stack ?? String(exception));
  return errorBody(500, 'internal error');
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const body = toErrorBody(exception, this.logger);
    const retryAfter = (exception as { retryAfter?: unknown })?.retryAfter;
    if (typeof retryAfter === 'string' && retryAfter) reply.header('retry-after', retryAfter);
    else if (body.statusCode === 503 || body.statusCode === 429) reply.header('retry-after', '1');
    void reply.status(body.statusCode).type('application/json; charset=utf-8').send(body);
  }
}

import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { Observable } from 'rxjs';

/** The same limit Fastify applies to other bodies. */
const BODY_LIMIT = 1024 * 1024;

function readRaw(raw: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    raw.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        reject(new PayloadTooLargeException(`request body is larger than ${BODY_LIMIT} bytes`));
        raw.destroy();
        return;
      }
      chunks.push(chunk);
    });
    raw.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    raw.on('error', reject);
  });
}

/**
 * The interface sends some inputs as a JSON body on GET. Fastify never parses a GET body, so
 * this reads it (same rules as the JSON parser: empty means "no body", `__proto__` refused)
 * and hands it to `@Body()`, which the ValidationPipe then checks like any other body.
 */
@Injectable()
export class GetBodyInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<{
      method: string;
      raw: IncomingMessage;
      body?: unknown;
      headers: Record<string, string | undefined>;
    }>();
    if (request.method === 'GET') {
      const text = await readRaw(request.raw);
      if (text.trim() === '') {
        request.body = undefined;
      } else {
        const type = request.headers['content-type'] ?? '';
        if (!/^application\/json\b/i.test(type))
          throw new UnsupportedMediaTypeException('a GET body must be application/json');
        try {
          request.body = JSON.parse(text, (key, value) => {
            if (key === '__proto__') throw new SyntaxError('__proto__ is not allowed');
            return value;
          });
        } catch (error) {
          throw new BadRequestException(`request body is not valid JSON: ${(error as Error).message}`);
        }
      }
    }
    return next.handle();
  }
}

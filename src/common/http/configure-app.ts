import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { AllExceptionsFilter } from '../errors/all-exceptions.filter';
import { errorBody } from '../errors/error-body';
import { AccessPolicy } from './access';
import { originAllowed } from './cors';
import { checkJsonBounds } from './json-bounds';
import { validationPipe } from './validation';
import { TROVE_VERSION } from '../../version';

/** Question answering: its own, lower rate limit (the qgpt stream's upgrades count too). */
const QGPT_LIMITED = /^\/qgpt\/(question|relevance|stream)(?:[/?]|$)/;
/** Seconds a client is told to wait when the process is overloaded. */
const OVERLOAD_RETRY_AFTER = 5;

/** Everything about the HTTP surface that is not a route: used by main.ts and by every test. */
export async function configureApp(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const logger = new Logger('HTTP');
  const access = new AccessPolicy(config);

  // First of all: the request target's length, then Host, Origin and the API key.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.url.length > config.maxUrlLength) {
      void reply.status(414).send(errorBody(414, `the request target is longer than ${config.maxUrlLength} characters`));
      return;
    }
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    const refusal = access.check(preflight ? '/.well-known/health' : request.url.split('?')[0], request.headers);
    if (refusal) {
      if (refusal.status === 401) void reply.header('www-authenticate', 'Bearer');
      void reply.status(refusal.status).send(errorBody(refusal.status, refusal.message));
      return;
    }
    done();
  });

  // Overload: 503 + Retry-After while the event loop lags or memory is past its bound.
  await fastify.register(underPressure, {
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    maxRssBytes: config.maxRssMb * 1024 * 1024,
    sampleInterval: 200,
    retryAfter: OVERLOAD_RETRY_AFTER,
    pressureHandler: (_request, reply, type) => {
      void reply
        .status(503)
        .header('retry-after', String(OVERLOAD_RETRY_AFTER))
        .send(errorBody(503, `overloaded (${type}); retry after ${OVERLOAD_RETRY_AFTER} s`));
    },
  });

  // Rate limits per client: its API key, else the connector application in the path, else its address.
  if (config.rateLimit > 0 || config.rateLimitQgpt > 0) {
    await fastify.register(rateLimit, { global: false });
    const group = (request: FastifyRequest): 'qgpt' | 'all' => (QGPT_LIMITED.test(request.url) ? 'qgpt' : 'all');
    const limitOf = (request: FastifyRequest): number => (group(request) === 'qgpt' ? config.rateLimitQgpt : config.rateLimit);
    const limiter = fastify.rateLimit({
      timeWindow: 60_000,
      max: (request) => limitOf(request) || Number.MAX_SAFE_INTEGER,
      keyGenerator: (request) => {
        const application = (request.params as { application?: string } | undefined)?.application;
        const who = access.keyIdentity(request.headers) ?? (application ? `app:${application}` : `ip:${request.ip}`);
        return `${group(request)}|${who}`;
      },
      errorResponseBuilder: (_request, context) => ({
        ...errorBody(429, `rate limit of ${context.max} requests per minute reached; retry after ${Math.ceil(context.ttl / 1000)} s`),
        statusCode: 429,
      }),
    });
    fastify.addHook('onRequest', limiter);
  }

  app.useGlobalPipes(validationPipe);
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableCors({
    origin: (origin, callback) => callback(null, !origin || originAllowed(origin, config.corsOrigins)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['content-type', 'authorization', 'x-api-key', 'x-application-id', 'application', 'idempotency-key', 'accept'],
    maxAge: 600,
  });

  // JSON bodies: an empty body on an operation whose body is optional (the SDKs send
  // `Content-Type: application/json` with nothing) means "no body"; `__proto__` is refused.
  const strictJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    strictJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      try {
        checkJsonBounds(value, { maxDepth: config.maxJsonDepth, maxArrayLength: config.maxArrayLength, maxStringLength: config.maxStringLength });
      } catch (bound) {
        return done(bound as Error, undefined);
      }
      done(null, value);
    });
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    logger.debug(`${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
    done();
  });

  SwaggerModule.setup('docs', app, () => openApiDocument(app), { jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml' });
}

export function openApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Trove')
    .setDescription(
      'Local-first store of snippets (assets), conversations, question answering and models. ' +
        'Implements the Pieces OS client interface; see INTERFACE.md and COMPATIBILITY.md.',
    )
    .setVersion(TROVE_VERSION)
    .build();
  return SwaggerModule.createDocument(app, builder);
}

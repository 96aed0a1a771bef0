import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { AllExceptionsFilter } from '../errors/all-exceptions.filter';
import { errorBody } from '../errors/error-body';
import { Metrics, UNMATCHED_ROUTE } from '../metrics/metrics';
import { AccessPolicy, METRICS_ROUTE } from './access';
import { originAllowed } from './cors';
import { checkJsonBounds, decodeUtf8 } from './json-bounds';
import { toJson } from './json-writers';
import { PressureGauge, guardOverload } from './overload-guard';
import { requestLine } from './request-log';
import { auditAction, callerOf } from './team-caller';
import { memoiseValidationMetadata, validationPipe } from '../validation/input';
import { TroveWsAdapter } from './ws-adapter';
import { SdkOperationIndex, unservedAnswer } from './unserved-operations';
import { TROVE_VERSION } from '../../version';

const HEALTH = '/.well-known/health';
/**
 * Routes no rate limit counts: what port scans, liveness and readiness probes and Trove's own
 * warm-up at boot call, and the metrics, whose scraper must still see an instance whose
 * clients have used up their limits (it reads them every few seconds, at a fixed pace).
 */
const NOT_RATE_LIMITED = new Set([HEALTH, '/.well-known/ready', METRICS_ROUTE]);
/** Question answering: its own, lower rate limit (the qgpt stream's upgrades count too). */
const QGPT_LIMITED = /^\/qgpt\/(question|relevance|stream)(?:[/?]|$)/;
/** MCP messages (tool calls, listings): their own limit too. */
const MCP_LIMITED = /^\/model_context_protocol\/[^/?]+\/(messages|mcp)(?:[/?]|$)/;
/** `.` and `..` path segments, also percent-encoded: no route has them, and they must not alias another. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|$)/i;

/** Everything about the HTTP surface that is not a route: used by main.ts and by every test. */
export async function configureApp(
  app: NestFastifyApplication,
  config: AppConfig,
  shared: { metrics?: Metrics; pressure?: PressureGauge } = {},
): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const logger = new Logger('HTTP');
  const access = new AccessPolicy(config);

  // First of all: the request id (bootstrap's genReqId: the client's or a fresh one) on every
  // answer, then the request target's length, then Host, Origin and the API key.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    if (request.url.length > config.maxUrlLength) {
      void reply
        .status(414)
        .send(errorBody(414, `the request target is longer than ${config.maxUrlLength} characters`));
      return;
    }
    if (/%00/.test(request.url)) {
      void reply.status(400).send(errorBody(400, 'the request target must not contain NUL (%00)'));
      return;
    }
    if (DOT_SEGMENT.test(request.url.split('?')[0])) {
      void reply.status(400).send(errorBody(400, 'the path must not contain "." or ".." segments'));
      return;
    }
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    // The route matters to the check only for the metrics token (and Fastify builds routeOptions anew at each read).
    const route = config.metricsToken ? request.routeOptions.url : undefined;
    const refusal = preflight
      ? access.check(HEALTH, request.headers)
      : access.check(request.url.split('?')[0], request.headers, route, callerOf(request.raw) !== undefined);
    if (refusal) {
      if (refusal.status === 401) void reply.header('www-authenticate', 'Bearer');
      void reply.status(refusal.status).send(errorBody(refusal.status, refusal.message));
      return;
    }
    done();
  });

  await guardOverload(fastify, config, shared.pressure);

  // Rate limits per client: its API key, else the connector application in the path, else its address.
  if (config.rateLimit > 0 || config.rateLimitQgpt > 0 || config.rateLimitMcp > 0) {
    await fastify.register(rateLimit, { global: false });
    const group = (request: FastifyRequest): 'qgpt' | 'mcp' | 'all' =>
      QGPT_LIMITED.test(request.url)
        ? 'qgpt'
        : request.method === 'POST' && MCP_LIMITED.test(request.url)
          ? 'mcp'
          : 'all';
    const limits = { qgpt: config.rateLimitQgpt, mcp: config.rateLimitMcp, all: config.rateLimit };
    const limitOf = (request: FastifyRequest): number => limits[group(request)];
    const limiter = fastify.rateLimit({
      timeWindow: 60_000,
      max: limitOf,
      keyGenerator: (request) => {
        const application = (request.params as { application?: string } | undefined)?.application;
        const user = callerOf(request.raw)?.userId;
        const who = user
          ? `user:${user}`
          : (access.keyIdentity(request.headers) ?? (application ? `app:${application}` : `ip:${request.ip}`));
        return `${group(request)}|${who}`;
      },
      errorResponseBuilder: (_request, context) => ({
        ...errorBody(
          429,
          `rate limit of ${context.max} requests per minute reached; retry after ${Math.ceil(context.ttl / 1000)} s`,
        ),
        statusCode: 429,
      }),
    });
    // A group whose limit is off (0) is not counted, and no limit headers are sent for it. Nor are
    // the routes of NOT_RATE_LIMITED (by their template: no spelling of their path is counted).
    fastify.addHook('onRequest', async (request, reply) => {
      if (limitOf(request) > 0 && !NOT_RATE_LIMITED.has(request.routeOptions.url!))
        await limiter.call(fastify, request, reply);
    });
  }

  // A request no route takes, after the checks above: an operation of the official SDK that Trove
  // does not serve is a 501 that names it and says why; a path served under other methods a 405
  // (with Allow); anything else a 404. None of these is a route: the OpenAPI document lists what Trove serves.
  const sdkOperations = new SdkOperationIndex();
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    const path = request.url.split('?')[0];
    const answer = unservedAnswer(
      sdkOperations,
      request.method,
      path,
      (method) => fastify.findRoute({ method: method as 'GET', url: path }) !== null,
    );
    if (answer.allow) void reply.header('allow', answer.allow);
    void reply.status(answer.body.statusCode).type('application/json; charset=utf-8').send(answer.body);
  });

  app.useWebSocketAdapter(new TroveWsAdapter(app, config));
  memoiseValidationMetadata();
  app.useGlobalPipes(validationPipe);
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableCors({
    origin: (origin, callback) => callback(null, !origin || originAllowed(origin, config.corsOrigins)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: [
      'content-type',
      'authorization',
      'x-api-key',
      'x-application-id',
      'application',
      'idempotency-key',
      'accept',
    ],
    maxAge: 600,
  });

  // Private Network Access: a page of an allowed origin (a webview, an applet) asks in its CORS
  // preflight whether it may reach this local address; the answer of an allowed preflight (one
  // that got Access-Control-Allow-Origin) says yes. The CORS hook answers preflights before any
  // hook of ours runs, so the header is added as its answer is sent.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (
      request.method === 'OPTIONS' &&
      request.headers['access-control-request-private-network'] === 'true' &&
      reply.hasHeader('access-control-allow-origin')
    ) {
      void reply.header('access-control-allow-private-network', 'true');
    }
    done(null, payload);
  });

  // Team deployments' audit log names the record a create made: the id of its answer.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (
      typeof payload === 'string' &&
      reply.statusCode < 300 &&
      callerOf(request.raw) &&
      auditAction(request.method, request.routeOptions.url ?? '') === 'create'
    ) {
      const id = /"id":"([^"]{1,200})"/.exec(payload.slice(0, 4096))?.[1];
      if (id) (reply as { createdId?: string }).createdId = id;
    }
    done(null, payload);
  });

  // Replies: objects with a JSON writer of their own use it (an asset's formats are written once).
  fastify.setReplySerializer((payload) => toJson(payload));

  // JSON bodies: an empty body on an operation whose body is optional (the SDKs send
  // `Content-Type: application/json` with nothing) means "no body"; `__proto__` is refused.
  const strictJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = decodeUtf8(body as Buffer);
    } catch (error) {
      return done(error as Error, undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    void strictJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      try {
        checkJsonBounds(value, {
          maxDepth: config.maxJsonDepth,
          maxArrayLength: config.maxArrayLength,
          maxStringLength: config.maxStringLength,
          textLeftToRoute: MCP_LIMITED.test(request.url),
        });
      } catch (bound) {
        return done(bound as Error, undefined);
      }
      done(null, value);
    });
  });

  // Every answered request is counted (GET /metrics), by its route template: a request no route
  // took is one label, whatever its path, so no client can make series without end.
  // TROVE_LOG_FORMAT=json logs each as one line (at log level); in text a line is written only at
  // debug level: the hook would otherwise build a discarded line per request.
  const metrics: Metrics = shared.metrics ?? app.get(Metrics);
  const jsonLines = config.logFormat === 'json' && config.logLevel !== 'error' && config.logLevel !== 'warn';
  const textLines = config.logFormat === 'text' && (config.logLevel === 'debug' || config.logLevel === 'verbose');
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    metrics.countRequest(request.method, route, reply.statusCode, reply.elapsedTime);
    const caller = callerOf(request.raw);
    if (caller) {
      const action = auditAction(request.method, route);
      if (action) {
        const record =
          Object.values((request.params as Record<string, string> | undefined) ?? {})[0] ??
          (reply as { createdId?: string }).createdId ??
          null;
        caller.audit({ action, method: request.method, route, record, status: reply.statusCode });
      }
    }
    if (jsonLines) {
      const line = requestLine(
        request,
        reply,
        route,
        caller ? `user:${caller.userName}` : access.caller(request.headers),
      );
      if (reply.statusCode >= 500) logger.warn(line);
      else logger.log(line);
    } else if (textLines) {
      logger.debug(`${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
    }
    done();
  });

  SwaggerModule.setup('docs', app, () => openApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
  });
}

export function openApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Trove')
    .setDescription(
      'Local-first store of snippets (assets), conversations, question answering and models. ' +
        "Implements the Pieces OS client interface (the official SDKs' operations); docs/CLIENTS.md in the repository says what each client calls.",
    )
    .setVersion(TROVE_VERSION)
    .build();
  return documentErrors(SwaggerModule.createDocument(app, builder));
}

/** Every error any operation can answer, all with the one ErrorBody shape. */
const ERROR_RESPONSES: Record<string, string> = {
  '400': 'Invalid input (malformed JSON, wrong types, unknown fields, invalid ids); nothing was changed',
  '401': 'An API key is required (TROVE_API_KEYS), or the connector application never connected',
  '403': 'Host or Origin not allowed',
  '404': 'Unknown id or route',
  '410': 'The resource was deleted',
  '413': 'Body, array or string over its bound',
  '414': 'Request target too long',
  '415': 'Content type other than application/json',
  '422': 'Idempotency-Key reused with a different request',
  '429': 'Rate limit reached (see Retry-After)',
  '503': 'Overloaded or storage unavailable; nothing was written (see Retry-After)',
};

function documentErrors(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas.ErrorBody = {
    type: 'object',
    required: ['statusCode', 'error', 'message'],
    properties: {
      statusCode: { type: 'integer', minimum: 400, maximum: 599 },
      error: { type: 'string' },
      message: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    },
  };
  const content = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods) as Array<{ responses?: Record<string, unknown> }>) {
      if (!operation?.responses) continue;
      for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
        operation.responses[status] ??= { description, content };
      }
    }
  }
  return document;
}

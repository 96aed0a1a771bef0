import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from '../config/app-config';
import { AllExceptionsFilter } from '../errors/all-exceptions.filter';
import { originAllowed } from './cors';
import { validationPipe } from './validation';
import { TroveWsAdapter } from './ws-adapter';
import { TROVE_VERSION } from '../../version';

/** Everything about the HTTP surface that is not a route: used by main.ts and by every test. */
export function configureApp(app: NestFastifyApplication, config: AppConfig): void {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const logger = new Logger('HTTP');

  app.useWebSocketAdapter(new TroveWsAdapter(app, config));
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
    strictJson(request, text, done);
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

import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../../common/config/app-config';
import { errorBody } from '../../common/errors/error-body';
import { AppletListeners } from './applet-listeners';
import { APPLET_VIEWS } from './applet-roles';
import { contentSecurityPolicy } from './content-security-policy';
import { WebAssets } from './web-assets';

/**
 * Trove's web app: the page at `/` (on Trove's port the whole app, on an applet's port that
 * applet's view) and its files under `/_app/`. Both are public (no API key: the page asks for
 * one and sends it with its API calls); the Host and Origin checks apply as everywhere.
 */
@ApiTags('Web app')
@Controller()
export class WebAppController {
  private readonly corsOrigins: string[];

  constructor(
    @Inject(WebAssets) private readonly assets: WebAssets | null,
    private readonly listeners: AppletListeners,
    config: AppConfig,
  ) {
    this.corsOrigins = config.corsOrigins;
  }

  @Get()
  @ApiProduces('text/html')
  @ApiOperation({
    operationId: 'home',
    summary:
      "Trove's web app (Drive, Copilot, Settings); on an applet's port, that applet (503 when the app is not built)",
  })
  @ApiOkResponse({ schema: { type: 'string' } })
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!this.assets) {
      await reply
        .status(503)
        .send(errorBody(503, 'the web app is not built: run `npm run build:web` (npm start builds it)'));
      return;
    }
    const type = await this.listeners.typeOnPort(request.socket.localPort);
    const nonce = randomBytes(16).toString('base64');
    this.secure(reply, nonce);
    await reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(this.assets.index(type ? APPLET_VIEWS[type] : 'app', nonce));
  }

  @Get('_app/*')
  @ApiOperation({
    operationId: 'webAppFile',
    summary: "A file of the web app (scripts and styles named by their content's hash: cached for a year)",
  })
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' } })
  async file(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const name = decodeURIComponent((request.params as Record<string, string>)['*'] ?? '');
    const file = this.assets?.file(name);
    if (!file) {
      await reply.status(404).send(errorBody(404, `the web app has no file ${JSON.stringify(name)}`));
      return;
    }
    this.secure(reply, null);
    void reply
      .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .type(file.type);
    if (file.gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
      await reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').send(file.gzip);
      return;
    }
    await reply.header('vary', 'accept-encoding').send(file.body);
  }

  private secure(reply: FastifyReply, nonce: string | null): void {
    if (nonce) void reply.header('content-security-policy', contentSecurityPolicy(this.corsOrigins, nonce));
    void reply
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cross-origin-opener-policy', 'same-origin');
  }
}

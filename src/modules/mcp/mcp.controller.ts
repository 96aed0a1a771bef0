import { Controller, Delete, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { isUUID } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../common/config/app-config';
import { InvalidInput, NotFound } from '../../common/errors/domain-errors';
import { basePathOf, callerOf } from '../../common/http/team-caller';
import { AccessPolicy } from '../../common/http/access';
import { McpServerFactory } from './mcp-server.factory';
import { McpSessions } from './mcp-sessions';
import { ModelContextProtocolSchemaVersionsWire } from './wire/schema-versions.wire';

/** The MCP SSE transport's protocol version (Pieces' first entry, what `pieces mcp` connects to) and Streamable HTTP's. */
const SSE_VERSION = '2024-11-05';
const STREAMABLE_VERSION = '2025-03-26';
/** Path versions served; the protocol version itself is negotiated in `initialize`, whatever the path says. */
const VERSIONS = new Set([SSE_VERSION, STREAMABLE_VERSION, '2025-06-18', '2025-11-25']);

/**
 * The Model Context Protocol endpoint (docs/MCP.md): Pieces' discovery route, the SSE transport
 * at Pieces' paths (`GET .../sse` + `POST .../messages?sessionId=`), and Streamable HTTP
 * (`POST .../mcp`, or `.../messages` without a session, as Pieces documents for 2025-03-26),
 * stateless so that any instance serves any request. The access checks (API key, Host, Origin)
 * and rate limits of every route run before these handlers (configureApp).
 */
@ApiTags('MCP')
@Controller('model_context_protocol')
export class McpController {
  private readonly access: AccessPolicy;

  constructor(
    config: AppConfig,
    private readonly sessions: McpSessions,
    private readonly servers: McpServerFactory,
  ) {
    this.access = new AccessPolicy(config);
  }

  @Get('schema_versions')
  @ApiOperation({
    operationId: 'modelContextProtocolSchemaVersions',
    summary:
      'The MCP endpoints: the SSE transport first (what `pieces mcp` uses), then Streamable HTTP; absolute URLs on the Host asked',
  })
  @ApiOkResponse({ type: ModelContextProtocolSchemaVersionsWire })
  schemaVersions(@Req() request: FastifyRequest): ModelContextProtocolSchemaVersionsWire {
    const base = `${request.protocol}://${request.headers.host ?? `127.0.0.1`}${basePathOf(request.raw)}/model_context_protocol`;
    return {
      iterable: [
        { version: SSE_VERSION, entry_endpoint: `${base}/${SSE_VERSION}/sse` },
        { version: STREAMABLE_VERSION, entry_endpoint: `${base}/${STREAMABLE_VERSION}/mcp` },
      ],
    };
  }

  @Get(':version/sse')
  @ApiOperation({
    operationId: 'modelContextProtocolServerSentEvents',
    summary: 'Opens an MCP session over Server-Sent Events; its first event names the URL to POST messages to',
  })
  async sse(
    @Param('version') version: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.known(version);
    const user = callerOf(request.raw)?.userId;
    const client = user ? `user:${user}` : (this.access.keyIdentity(request.headers) ?? `ip:${request.ip}`);
    await this.sessions.open(
      client,
      `${basePathOf(request.raw)}/model_context_protocol/${version}/messages`,
      reply.raw,
      () => hijack(reply),
      (transport) => this.servers.create(callerOf(request.raw)).connect(transport),
    );
  }

  @Post(':version/messages')
  @ApiOperation({
    operationId: 'modelContextProtocolMessages',
    summary:
      "A JSON-RPC message of an SSE session (`?sessionId=` from the stream's endpoint event; 202, the answer comes on the stream), " +
      'or without a session a Streamable HTTP request',
  })
  async messages(
    @Param('version') version: string,
    @Query('sessionId') sessionId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.known(version);
    if (sessionId === undefined) return this.streamable(request, reply);
    if (!isUUID(sessionId)) throw new InvalidInput('sessionId must be the UUID the SSE stream named');
    const message: unknown = request.body;
    if (!JSONRPCMessageSchema.safeParse(message).success)
      throw new InvalidInput('the body must be one JSON-RPC 2.0 message');
    const delivered = await this.sessions.deliver(sessionId.toLowerCase(), message, async (transport) => {
      hijack(reply);
      await transport.handlePostMessage(request.raw, reply.raw, message);
    });
    if (delivered === 'relayed') await reply.status(202).type('text/plain; charset=utf-8').send('Accepted');
  }

  @Post(':version/mcp')
  @ApiOperation({
    operationId: 'modelContextProtocolStreamableHttp',
    summary: 'MCP over Streamable HTTP (stateless: no session, any instance answers)',
  })
  async mcp(
    @Param('version') version: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.known(version);
    await this.streamable(request, reply);
  }

  /**
   * No stream to open and no session to end: the server is stateless, so nothing would ever be
   * sent on a GET stream (it would only hold a connection). The MCP specification's answer is 405.
   */
  @Get(':version/mcp')
  @ApiExcludeEndpoint()
  mcpStream(@Param('version') version: string, @Res() reply: FastifyReply): Promise<void> {
    return this.notAllowed(version, reply);
  }

  @Delete(':version/mcp')
  @ApiExcludeEndpoint()
  mcpClose(@Param('version') version: string, @Res() reply: FastifyReply): Promise<void> {
    return this.notAllowed(version, reply);
  }

  private async notAllowed(version: string, reply: FastifyReply): Promise<void> {
    this.known(version);
    await reply
      .status(405)
      .header('allow', 'POST')
      .send({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: 'Method not allowed: this MCP server is stateless (POST only, no session, no stream)',
        },
        id: null,
      });
  }

  private known(version: string): void {
    if (!VERSIONS.has(version))
      throw new NotFound(
        `no MCP endpoint for version "${version}" (GET /model_context_protocol/schema_versions lists them)`,
      );
  }

  /** One Streamable HTTP request, answered by a server of its own (JSON responses, no session). */
  private async streamable(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const server = this.servers.create(callerOf(request.raw));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    hijack(reply);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  }
}

/** Hands the response to the MCP SDK, keeping the headers set so far (CORS, rate limits). */
function hijack(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[]);
  reply.hijack();
}

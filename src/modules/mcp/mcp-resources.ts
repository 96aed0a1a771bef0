import { QueryBus } from '@nestjs/cqrs';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { isUUID } from 'class-validator';
import { DomainError } from '../../common/errors/domain-errors';
import { ExportWorkstreamSummaryQuery } from '../assets/queries/export-workstream-summary.query';
import { snippetMarkdown } from './mcp-markdown';
import { RecentMemoriesQuery } from './queries/memories.query';
import { GetSnippetQuery, RecentSnippetsQuery } from './queries/snippets.query';

/** The resources a client lists (each kind): the most recent ones; any id can be read. */
const LISTED_RESOURCES = 50;

/** Snippets and memories as MCP resources (trove://snippets/{id}, trove://memories/{id}), read through the same queries as the tools. */
export function registerResources(server: McpServer, queries: QueryBus): void {
  server.registerResource(
    'snippet',
    new ResourceTemplate('trove://snippets/{id}', {
      list: async () => ({
        resources: (await queries.execute(new RecentSnippetsQuery(LISTED_RESOURCES))).map((s) => ({
          uri: `trove://snippets/${s.id}`,
          name: s.name,
          description: `Saved snippet (${s.language})`,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    {
      title: 'Saved snippet',
      description: 'A saved snippet as Markdown (the most recent are listed; any id can be read)',
      mimeType: 'text/markdown',
    },
    (uri, variables) =>
      read(uri, variables, async (id) => snippetMarkdown(await queries.execute(new GetSnippetQuery(id)))),
  );
  server.registerResource(
    'memory',
    new ResourceTemplate('trove://memories/{id}', {
      list: async () => ({
        resources: (await queries.execute(new RecentMemoriesQuery(LISTED_RESOURCES))).map((m) => ({
          uri: `trove://memories/${m.id}`,
          name: m.name,
          description: `Memory${m.project ? ` of ${m.project}` : ''} (${m.created.slice(0, 10)})`,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    {
      title: 'Memory',
      description: 'A memory saved by an agent (create_pieces_memory) as Markdown',
      mimeType: 'text/markdown',
    },
    (uri, variables) => read(uri, variables, (id) => queries.execute(new ExportWorkstreamSummaryQuery(id))),
  );
}

/** A resource read: the id checked, a domain error turned into an MCP error naming the resource. */
async function read(
  uri: URL,
  variables: Record<string, string | string[]>,
  markdown: (id: string) => Promise<string>,
): Promise<ReadResourceResult> {
  const id = String(variables.id ?? '').toLowerCase();
  if (!isUUID(id)) throw new McpError(ErrorCode.InvalidParams, `${uri.href}: the id must be a UUID`);
  try {
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await markdown(id) }] };
  } catch (error) {
    if (error instanceof DomainError)
      throw new McpError(ErrorCode.InvalidParams, `${uri.href}: ${error.message}`, { status: error.status });
    throw error;
  }
}

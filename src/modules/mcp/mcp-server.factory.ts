import { Injectable, Logger } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isUUID } from 'class-validator';
import { z } from 'zod';
import { DomainError, Forbidden, InvalidInput } from '../../common/errors/domain-errors';
import { mergeAcrossStores, type StoreLabel, type TeamCaller } from '../../common/http/team-caller';
import { validateInput } from '../../common/validation/input';
import { CreateAssetCommand } from '../assets/commands/create-asset.command';
import { CreateWorkstreamSummaryCommand } from '../assets/commands/create-workstream-summary.command';
import { SeedDto } from '../assets/dto/seed.dto';
import { fenced } from '../assets/export/asset-export';
import { answerText, round, snippetMarkdown } from './mcp-markdown';
import { registerResources } from './mcp-resources';
import { AskMemoryQuery } from './queries/ask-memory.query';
import { ReadConversationQuery, RecentConversationsQuery } from './queries/conversations.query';
import { GetSnippetQuery, SearchSnippetsQuery, type SnippetHit } from './queries/snippets.query';
import { TROVE_VERSION } from '../../version';

// Bounds shared by the tools' schemas: what an agent sends is text a person could have typed.
// (NUL and lone surrogates, which the JSON parser refuses for every other route, are refused here per argument.)
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
    .refine(
      (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed(),
      'must be well-formed Unicode (no lone surrogates)',
    );
const required = (max: number) => text(max).refine((s) => s.trim().length > 0, 'must not be empty');
const list = (item: number, max: number) => z.array(text(item)).max(max);
const uuid = z.string().refine((s) => isUUID(s), 'must be a UUID');

/** Pieces' two tools, with the argument names the official CLI and Pieces' agents' configs use. */
const ASK_PIECES_LTM = {
  question: required(10_000).describe("The user's question, as direct and specific as possible"),
  chat_llm: required(200).describe(
    'The language model the agent is running on (recorded; Trove answers with its own default model)',
  ),
  topics: list(200, 50).optional().describe('Keywords of the question: names, technologies, projects'),
  open_files: list(4096, 20)
    .optional()
    .describe('Absolute paths of the files open in the editor (read when TROVE_QGPT_ROOTS allows)'),
  application_sources: list(200, 50)
    .optional()
    .describe('Applications the answer should come from (recorded; Trove keeps no per-application capture)'),
  related_questions: list(1000, 20).optional().describe('Other phrasings of the question, to widen retrieval'),
  connected_client: text(200).optional().describe('The agent or editor asking (e.g. Claude Code, Cursor)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(50)
    .optional()
    .describe('At most this many passages and sources, best first (default 8)'),
};

const CREATE_PIECES_MEMORY = {
  summary_description: required(200).describe('A short title of what was done or learned'),
  summary: required(100_000).describe('The memory itself, in Markdown: what was done, decided, learned, and why'),
  project: text(200).optional().describe('The project (e.g. its root path or repository name)'),
  files: list(1024, 100).optional().describe('Absolute paths of the files involved'),
  externalLinks: list(2048, 100).optional().describe('URLs involved (http or https)'),
  connected_client: text(200).optional().describe('The agent or editor saving it (e.g. Claude Code, Cursor)'),
  time: text(64)
    .optional()
    .describe(
      'When what it records happened (ISO-8601 date or date and time, e.g. 2025-05-14 or 2025-05-14T09:30:00Z); when it is saved if left out',
    ),
};

/** Snippet tools mask the secrets Trove found in a text (`AKIA************T3VB`) unless asked for them. */
const REVEAL_SECRETS = z
  .boolean()
  .optional()
  .describe(
    'Show the secrets found in the text (keys, tokens, passwords) instead of their masks; only when the user asked for them',
  );

const SEARCH_SNIPPETS = {
  query: required(1000).describe('Words, identifiers or a phrase; typos are tolerated'),
  limit: z.number().int().min(1).max(50).optional().describe('At most this many results (default 10)'),
  everywhere: z
    .boolean()
    .optional()
    .describe(
      "On a team deployment: also search the shared spaces you belong to (each result names its space; read one with get_snippet's space)",
    ),
  reveal_secrets: REVEAL_SECRETS,
};
const GET_SNIPPET = {
  id: uuid,
  reveal_secrets: REVEAL_SECRETS,
  space: text(200)
    .optional()
    .describe('On a team deployment: the shared space the snippet is in (as search_snippets named it)'),
};

const SAVE_SNIPPET = {
  content: required(1_000_000).describe('The snippet text (code or prose)'),
  name: text(200).optional().describe('A name; generated from the content when left out'),
  language: text(40).optional().describe('Language as a file extension (ts, py, rs, go, ...); detected when left out'),
  description: text(2000).optional(),
  tags: list(100, 50).optional(),
  links: list(2048, 20).optional().describe('Related URLs (http or https)'),
};

const LIST_CONVERSATIONS = {
  limit: z.number().int().min(1).max(100).optional().describe('At most this many, most recent first (default 20)'),
};
const BY_ID = { id: uuid };

/** A team user's MCP write into a full store is refused as its HTTP twin is (413 there). */
async function refuseOverQuota(caller: TeamCaller | undefined): Promise<void> {
  const refusal = await caller?.quotaRefusal();
  if (refusal) throw new Forbidden(refusal);
}

/** A team user's MCP write in the audit log: one entry per tool call that saved (the MCP request itself is not audited). */
function audited(caller: TeamCaller | undefined, tool: string, record: string): void {
  caller?.audit({ action: 'create', method: 'MCP', route: `mcp:${tool}`, record, status: 200 });
}

/**
 * Builds the MCP server of one session (SSE) or one request (Streamable HTTP): Pieces' tools
 * (ask_pieces_ltm, create_pieces_memory), Trove's own, and snippets and memories as resources.
 * Every tool dispatches the same commands and queries as the HTTP API; a domain error (bad
 * input, unknown id) is a tool result with `isError`, the SDK answers invalid arguments itself.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('MCP');

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** `caller`: who the session or request comes from on a team deployment (their spaces are searched too when asked). */
  create(caller?: TeamCaller): McpServer {
    const server = new McpServer(
      { name: 'trove', title: 'Trove', version: TROVE_VERSION },
      {
        capabilities: { tools: {}, resources: {} },
        instructions:
          "Trove is the user's long-term memory: saved snippets, memories of past work and conversations. " +
          'Ask it with ask_pieces_ltm before answering questions about past work; save what was done with create_pieces_memory.',
      },
    );
    this.tools(server, caller);
    registerResources(server, this.queries);
    return server;
  }

  private tools(server: McpServer, caller: TeamCaller | undefined): void {
    server.registerTool(
      'ask_pieces_ltm',
      {
        title: 'Ask the long-term memory',
        description:
          "Answers a question from the user's long-term memory in Trove: saved snippets, memories (create_pieces_memory) and " +
          'conversations, with the passages and their sources. Use it for questions about past work, decisions, code saved ' +
          'earlier, or what happened in a project.',
        inputSchema: ASK_PIECES_LTM,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (args) =>
        this.run('ask_pieces_ltm', async () => {
          const answer = await this.queries.execute(
            new AskMemoryQuery({
              question: args.question,
              topics: args.topics,
              openFiles: args.open_files,
              relatedQuestions: args.related_questions,
              limit: args.limit,
            }),
          );
          return answerText(answer);
        }),
    );

    server.registerTool(
      'create_pieces_memory',
      {
        title: 'Save a memory',
        description:
          'Saves a memory of work done (what changed, what was decided and why) to Trove, linked to its project, files and ' +
          'links, so that later questions (ask_pieces_ltm) find it. Use it at the end of a task or when something worth ' +
          'remembering was learned. Saving the same text again keeps one memory and answers its id.',
        inputSchema: CREATE_PIECES_MEMORY,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (args) =>
        this.run('create_pieces_memory', async () => {
          await refuseOverQuota(caller);
          const saved = await this.commands.execute(
            new CreateWorkstreamSummaryCommand({
              name: args.summary_description.trim(),
              text: args.summary,
              project: args.project?.trim() || undefined,
              files: args.files,
              links: args.externalLinks,
              source: args.connected_client?.trim() || undefined,
              about: args.time?.trim() || undefined,
            }),
          );
          audited(caller, 'create_pieces_memory', saved.id);
          return `Saved the memory “${saved.name}” (id ${saved.id}); read it as trove://memories/${saved.id}.`;
        }),
    );

    server.registerTool(
      'search_snippets',
      {
        title: 'Search saved snippets',
        description:
          'Searches the saved snippets by words, identifiers or phrases (typo-tolerant) and lists the best matches with a preview.',
        inputSchema: SEARCH_SNIPPETS,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (args) =>
        this.run('search_snippets', async () => {
          const limit = args.limit ?? 10;
          const search = new SearchSnippetsQuery(args.query.trim(), limit, args.reveal_secrets === true);
          const everywhere = Boolean(caller && (args.everywhere ?? caller.everywhere));
          const hits: Array<SnippetHit & { space?: StoreLabel }> = everywhere
            ? mergeAcrossStores(
                await caller!.inEachStore((app) => app.get(QueryBus).execute(search)),
                (hit) => hit.score,
                limit,
              )
            : await this.queries.execute(search);
          if (hits.length === 0)
            return `No saved snippet matches “${args.query.trim()}”${everywhere ? ' in your store or your spaces' : ''}.`;
          const where = (hit: { space?: StoreLabel }) =>
            hit.space?.space ? `, in space “${hit.space.name}”` : everywhere ? ', yours' : '';
          return hits
            .map(
              (h, i) =>
                `${i + 1}. **${h.name}** (${h.language}, id ${h.id}${where(h)}, score ${round(h.score)})\n${fenced(h.preview, h.language)}`,
            )
            .join('\n\n');
        }),
    );

    server.registerTool(
      'get_snippet',
      {
        title: 'Read a saved snippet',
        description:
          'Reads one saved snippet in full: name, language, description, tags, links and its text (secrets found in it masked unless reveal_secrets is true).',
        inputSchema: GET_SNIPPET,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (args) =>
        this.run('get_snippet', async () => {
          const read = new GetSnippetQuery(args.id.toLowerCase());
          const reveal = args.reveal_secrets === true;
          const space = args.space?.trim();
          if (!space) return snippetMarkdown(await this.queries.execute(read), reveal);
          if (!caller)
            throw new InvalidInput('space names a shared space of a team deployment; this Trove has no users');
          return caller.inSpace(space, false, async (app) =>
            snippetMarkdown(await app.get(QueryBus).execute(read), reveal),
          );
        }),
    );

    server.registerTool(
      'save_snippet',
      {
        title: 'Save a snippet',
        description:
          'Saves a snippet of code or text to Trove. Its language, name, description and tags are generated when not given.',
        inputSchema: SAVE_SNIPPET,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      (args) =>
        this.run('save_snippet', async () => {
          await refuseOverQuota(caller);
          const seed = await validateInput(SeedDto, {
            type: 'SEEDED_ASSET',
            asset: {
              format: {
                fragment: { string: { raw: args.content } },
                ...(args.language ? { classification: { specific: args.language } } : {}),
              },
              metadata: {
                ...(args.name?.trim() ? { name: args.name.trim() } : {}),
                ...(args.tags?.length ? { tags: args.tags.map((t) => ({ text: t })) } : {}),
                ...(args.links?.length ? { websites: args.links.map((url) => ({ url, name: url })) } : {}),
                ...(args.description?.trim()
                  ? { annotations: [{ type: 'DESCRIPTION', text: args.description.trim() }] }
                  : {}),
              },
            },
          });
          const asset = await this.commands.execute(new CreateAssetCommand(seed, false));
          audited(caller, 'save_snippet', asset.id);
          return `Saved the snippet “${asset.name ?? 'Unnamed snippet'}” (id ${asset.id}); read it with get_snippet or as trove://snippets/${asset.id}.`;
        }),
    );

    server.registerTool(
      'list_conversations',
      {
        title: 'List conversations',
        description: 'Lists the most recent conversations (copilot chats) with their ids.',
        inputSchema: LIST_CONVERSATIONS,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (args) =>
        this.run('list_conversations', async () => {
          const recent = await this.queries.execute(new RecentConversationsQuery(args.limit ?? 20));
          if (recent.length === 0) return 'There are no conversations.';
          return recent.map((c, i) => `${i + 1}. **${c.name}** (id ${c.id}, updated ${c.updated})`).join('\n');
        }),
    );

    server.registerTool(
      'read_conversation',
      {
        title: 'Read a conversation',
        description: 'Reads one conversation: its messages in order, with their roles.',
        inputSchema: BY_ID,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (args) =>
        this.run('read_conversation', async () => {
          const c = await this.queries.execute(new ReadConversationQuery(args.id.toLowerCase()));
          const messages = c.messages.map((m) => `### ${m.role.toLowerCase()} (${m.created})\n\n${m.text}`);
          return [
            `# ${c.name}`,
            `id ${c.id}, created ${c.created}`,
            ...(messages.length ? messages : ['(no messages)']),
          ].join('\n\n');
        }),
    );
  }

  /** Runs a tool: its text, or the domain error as an error result (nothing was changed); anything else is logged. */
  private async run(tool: string, work: () => Promise<string>): Promise<CallToolResult> {
    try {
      return { content: [{ type: 'text', text: await work() }] };
    } catch (error) {
      if (error instanceof DomainError) {
        return {
          isError: true,
          content: [{ type: 'text', text: `${tool} failed (${error.status}): ${error.message}` }],
        };
      }
      this.logger.error(`${tool} failed: ${(error as Error).stack ?? String(error)}`);
      return {
        isError: true,
        content: [{ type: 'text', text: `${tool} failed: internal error (logged on the server)` }],
      };
    }
  }
}

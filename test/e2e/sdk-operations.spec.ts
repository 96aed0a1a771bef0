import * as sdk from '@pieces.app/pieces-os-client';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { SDK_OPERATIONS } from '../../src/common/wire/sdk-operations';
import { nodeRequest } from './support/http';
import { exampleParameters } from './support/sdk-examples';
import { textSeed } from './support/seeds';
import { useTestServer } from './support/server';

/**
 * The walker: EVERY operation of the official TS SDK (read from its own API classes, all 586 of
 * @pieces.app/pieces-os-client 4.1.0), called through the SDK itself (WebSocket operations with
 * `ws`) against a real server with a valid request: the real ids of records created first where
 * a path names one, bodies valid for the SDK's request models (test/e2e/support/sdk-examples.ts,
 * from its declarations; real records where an operation needs them). Each must answer its
 * meaning (a 2xx the SDK parses, or a JSON 4xx such as a 404 for a record that does not exist)
 * or a JSON 501 that names it and says why Trove does not offer it: never a bare route-not-found
 * 404, never another 5xx; a WebSocket either opens and sends its first frame or answers the 501.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sdkOperations, tableRow } = require('../../scripts/gen-sdk-operations.js') as {
  sdkOperations(): ParsedOperation[];
  tableRow(op: ParsedOperation): unknown;
};

interface ParsedOperation {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  api: string;
  websocket?: true;
  pathParams: Array<{ name: string; param: string }>;
  query: Array<{ name: string; param: string }>;
  required: string[];
  body: { param: string; model: string | null } | null;
  answer: string;
}

const SDK = sdk as unknown as Record<string, unknown>;
type Api = Record<
  string,
  (params: Record<string, unknown>, init?: RequestInit) => Promise<{ raw: Response; value(): Promise<unknown> }>
>;

/** fetch refuses a GET with a body (two SDK operations send one): those go out through node:http, as the SDK means them. */
async function fetchApi(url: string, init: RequestInit): Promise<Response> {
  if (init.method !== 'GET' || init.body === undefined || init.body === null) return fetch(url, init);
  const headers = Object.fromEntries(
    Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const res = await nodeRequest(url, 'GET', String(init.body), headers);
  return new Response(res.text, { status: res.status, headers: res.headers });
}

interface Context {
  ids: Record<string, string>;
  application: sdk.Application;
  config: sdk.Configuration;
}

/** What an operation answered: its status, and its JSON error's message when it was one. */
interface Answer {
  status: number | 'open';
  json?: { statusCode?: number; error?: string; message?: unknown };
  text?: string;
  /** A 2xx the SDK could not read (its `XFromJSON` threw), or a client-side failure. */
  problem?: string;
}

const api = (ctx: Context, name: string) =>
  new (SDK[name] as new (c: sdk.Configuration) => unknown)(ctx.config) as sdk.BaseAPI;

/**
 * Request parameters of the operations that need real records to mean something (each must
 * then answer a 2xx): everything else is walked with the SDK's example values and the ids of
 * the records below.
 */
const REAL: Record<string, (ctx: Context) => Promise<Record<string, unknown>> | Record<string, unknown>> = {
  connect: () => ({
    seededConnectorConnection: { application: { name: 'OPEN_SOURCE', version: '1.0.0', platform: 'LINUX' } },
  }),
  assetsCreateNewAsset: () => ({ seed: textSeed('def walked(): return 1') }),
  assetsDraft: () => ({ seed: textSeed('const drafted = 2;') }),
  assetUpdate: async (ctx) => ({
    asset: { ...(await new sdk.AssetApi(ctx.config).assetSnapshot({ asset: ctx.ids.asset })), name: 'walked' },
  }),
  assetReclassify: async (ctx) => ({
    assetReclassification: {
      asset: await new sdk.AssetApi(ctx.config).assetSnapshot({ asset: ctx.ids.asset }),
      ext: sdk.ClassificationSpecificEnum.Py,
    },
  }),
  assetsSearchWithFilters: () => ({ assetsSearchWithFiltersInput: { query: 'walked' } }),
  searchAssets: () => ({ query: 'walked' }),
  fullTextSearch: () => ({ query: 'walked' }),
  neuralCodeSearch: () => ({ query: 'walked' }),
  tagBasedSearch: () => ({ seededAssetTags: { iterable: [{ text: 'walker' }] } }),
  assetsGetRelatedAssets: async (ctx) => ({
    assets: { iterable: [await new sdk.AssetApi(ctx.config).assetSnapshot({ asset: ctx.ids.asset })] },
  }),
  assetSpecificAssetExport: () => ({ exportType: 'MD' }),
  assetsDeleteAsset: async (ctx) => ({ asset: (await newAsset(ctx, 'deleted by the walker')).id }),
  conversationsCreateSpecificConversation: () => ({ seededConversation: { type: 'COPILOT', name: 'walked' } }),
  conversationUpdate: async (ctx) => ({
    conversation: {
      ...(await new sdk.ConversationApi(ctx.config).conversationGetSpecificConversation({
        conversation: ctx.ids.conversation,
      })),
      name: 'walked',
    },
  }),
  conversationsDeleteSpecificConversation: async (ctx) => ({
    conversation: (
      await new sdk.ConversationsApi(ctx.config).conversationsCreateSpecificConversation({
        seededConversation: { type: 'COPILOT' },
      })
    ).id,
  }),
  messageUpdateValue: async (ctx) => {
    const message = await new sdk.ConversationMessageApi(ctx.config).messageSpecificMessageSnapshot({
      message: ctx.ids.message,
    });
    return { conversationMessage: { ...message, fragment: { string: { raw: 'walked' } } } };
  },
  formatUpdateValue: async (ctx) => {
    const format = await new sdk.FormatApi(ctx.config).formatSnapshot({ format: ctx.ids.format });
    return { format: { ...format, fragment: { string: { raw: 'def walked(): return 2' } } } };
  },
  question: () => ({ qGPTQuestionInput: { query: 'what does walked return?', relevant: { iterable: [] } } }),
  relevance: () => ({ qGPTRelevanceInput: { query: 'walked', options: { question: true } } }),
  reprompt: () => ({ qGPTRepromptInput: { query: 'and then?', conversation: { iterable: [] } } }),
  hints: () => ({ qGPTHintsInput: { query: 'walked', relevant: { iterable: [] } } }),
  modelsCreateNewModel: (ctx) => ({ seededModel: customModel(ctx, 'walker') }),
  modelsDeleteSpecificModel: async (ctx) => ({
    model: (await new sdk.ModelsApi(ctx.config).modelsCreateNewModel({ seededModel: customModel(ctx, 'doomed') })).id,
  }),
  anchorsCreateNewAnchor: () => ({ seededAnchor: { type: 'FILE', fullpath: '/tmp/walked.py' } }),
  osAppletLaunch: (ctx) => ({ inactiveOSServerApplet: { type: 'COPILOT', parent: ctx.application } }),
  workstreamSummariesCreateNewWorkstreamSummary: () => ({ seededWorkstreamSummary: memory('walked memory') }),
  workstreamSummariesDeleteSpecificWorkstreamSummary: async (ctx) => ({
    workstreamSummary: (
      await new sdk.WorkstreamSummariesApi(ctx.config).workstreamSummariesCreateNewWorkstreamSummary({
        seededWorkstreamSummary: memory('doomed'),
      })
    ).id,
  }),
  searchWorkstreamSummaries: () => ({ searchInput: { engines: { iterable: [{ query: 'walked' }] } } }),
  messagesDeleteSpecificMessage: async (ctx) => ({ message: (await conversationWithMessage(ctx)).message }),
  assetScoresIncrement: () => ({ seededScoreIncrement: { asset: { reuse: true } } }),
  conversationScoresIncrement: () => ({ seededScoreIncrement: { conversation: { reuse: true } } }),
  intention: (ctx) => ({
    seededConnectorAsset: {
      application: ctx.application,
      format: { fragment: { string: { raw: 'def intended(): pass' } } },
    },
  }),
  suggest: (ctx) => ({
    seededConnectorCreation: {
      asset: { application: ctx.application, format: { fragment: { string: { raw: 'def walked(): return 1' } } } },
    },
  }),
  // Records as collections of their own (issue 42).
  tagsCreateNewTag: (ctx) => ({ seededTag: { text: 'walked tag', asset: ctx.ids.asset } }),
  tagsExists: () => ({ existentMetadata: { value: 'walker' } }),
  searchTags: () => ({ searchInput: { engines: { iterable: [{ query: 'walker' }] } } }),
  tagUpdate: async (ctx) => ({
    tag: { ...(await new sdk.TagApi(ctx.config).tagsSpecificTagSnapshot({ tag: ctx.ids.tag })), category: 'HANDLE' },
  }),
  tagsDeleteSpecificTag: async (ctx) => ({
    tag: (await new sdk.TagsApi(ctx.config).tagsCreateNewTag({ seededTag: { text: `doomed ${randomUUID()}` } })).id,
  }),
  websitesCreateNewWebsite: (ctx) => ({
    seededWebsite: {
      url: 'https://walker.example/walked',
      name: 'walked',
      asset: ctx.ids.asset,
      conversation: ctx.ids.conversation,
    },
  }),
  websitesExists: () => ({ existentMetadata: { value: 'https://walker.example/docs' } }),
  searchWebsites: () => ({ searchInput: { engines: { iterable: [{ query: 'walker' }] } } }),
  websiteUpdate: async (ctx) => ({
    website: {
      ...(await new sdk.WebsiteApi(ctx.config).websitesSpecificWebsiteSnapshot({ website: ctx.ids.website })),
      name: 'walker docs, renamed',
    },
  }),
  websitesDeleteSpecificWebsite: async (ctx) => ({
    website: (
      await new sdk.WebsitesApi(ctx.config).websitesCreateNewWebsite({
        seededWebsite: { url: `https://doomed.example/${randomUUID()}`, name: 'doomed' },
      })
    ).id,
  }),
  annotationsCreateNewAnnotation: (ctx) => ({
    seededAnnotation: { type: 'COMMENT', text: 'the walker commented', conversation: ctx.ids.conversation },
  }),
  annotationUpdate: async (ctx) => ({
    annotation: {
      ...(await new sdk.AnnotationApi(ctx.config).annotationSpecificAnnotationSnapshot({
        annotation: ctx.ids.annotation,
      })),
      text: 'walked again',
    },
  }),
  annotationsDeleteSpecificAnnotation: async (ctx) => ({
    annotation: (
      await new sdk.AnnotationsApi(ctx.config).annotationsCreateNewAnnotation({
        seededAnnotation: { type: 'COMMENT', text: 'doomed', asset: ctx.ids.asset },
      })
    ).id,
  }),
  activitiesCreateNewActivity: (ctx) => ({ seededActivity: activity(ctx) }),
  activitiesDeleteSpecificActivity: async (ctx) => ({
    activity: (await new sdk.ActivitiesApi(ctx.config).activitiesCreateNewActivity({ seededActivity: activity(ctx) }))
      .id,
  }),
  anchorUpdate: async (ctx) => ({
    anchor: {
      ...(await new sdk.AnchorApi(ctx.config).anchorSpecificAnchorSnapshot({ anchor: ctx.ids.anchor })),
      name: 'walked anchor',
    },
  }),
  anchorsDeleteSpecificAnchor: async (ctx) => ({
    anchor: (
      await new sdk.AnchorsApi(ctx.config).anchorsCreateNewAnchor({
        seededAnchor: { type: 'FILE', fullpath: `/tmp/doomed-${randomUUID()}.py` },
      })
    ).id,
  }),
  rangesCreateNewRange: (ctx) => ({
    seededRange: {
      from: { value: new Date(Date.now() - 900_000) },
      to: { value: new Date() },
      conversation: { reference: { id: ctx.ids.conversation } },
    },
  }),
  rangeUpdate: async (ctx) => ({
    range: {
      ...(await new sdk.RangeApi(ctx.config).rangesSpecificRangeSnapshot({ range: ctx.ids.range })),
      between: true,
    },
  }),
  rangesDeleteSpecificRange: async (ctx) => ({
    range: (await new sdk.RangesApi(ctx.config).rangesCreateNewRange({ seededRange: {} })).id,
  }),
  messagesCreateSpecificMessage: (ctx) => ({
    seededConversationMessage: {
      role: 'USER',
      fragment: { string: { raw: 'walked question' } },
      conversation: { id: ctx.ids.conversation },
    },
  }),
  messageSpecificMessageUpdate: async (ctx) => ({
    conversationMessage: {
      ...(await new sdk.ConversationMessageApi(ctx.config).messageSpecificMessageSnapshot({
        message: ctx.ids.message,
      })),
      sentiment: 'LIKE',
    },
  }),
  // Both sides of every link Trove keeps (the path's ids are real): each must answer 204.
  ...Object.fromEntries(
    [
      'tagAssociateAsset',
      'tagDisassociateAsset',
      'websiteAssociateAsset',
      'websiteDisassociateAsset',
      'websiteAssociateConversation',
      'websiteDisassociateConversation',
      'anchorAssociateConversation',
      'anchorDisassociateConversation',
      'rangeAssociateConversationGroundingTemporalRangeWorkstreams',
      'rangeDisassociateConversationGroundingTemporalRangeWorkstreams',
      'assetAssociateConversation',
      'assetDisassociateConversation',
      'workstreamSummaryAssociateAsset',
      'workstreamSummaryDisassociateAsset',
      'workstreamSummaryAssociateConversation',
      'workstreamSummaryDisassociateConversation',
    ].map((id) => [id, () => ({})]),
  ),
  formatReclassify: async (ctx) => ({
    formatReclassification: {
      ext: 'ts',
      format: await new sdk.FormatApi(ctx.config).formatSnapshot({ format: ctx.ids.format }),
    },
  }),
};

/** What Obsidian reports when the user copies an asset. */
function activity(ctx: Context): sdk.SeededActivity {
  return {
    application: ctx.application,
    mechanism: 'AUTOMATIC',
    asset: { id: ctx.ids.asset },
    event: {
      asset: {
        asset: { id: ctx.ids.asset },
        identifierDescriptionPair: { assetFormatCopied: 'an_asset_preview_format_was_copied' },
      },
    },
  } as sdk.SeededActivity;
}

const APPLICATION = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'VS_CODE',
  version: '1.90.0',
  platform: 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
} as const;

/** A custom model built on the first model GET /models lists (by its `unique`). */
function customModel(ctx: Context, name: string): sdk.SeededModel {
  return {
    version: '1',
    created: { value: new Date() },
    name: `${name} ${randomUUID()}`,
    cloud: false,
    type: 'BALANCED',
    usage: 'CODE_CONVERSATION',
    unique: ctx.ids.model_unique,
  } as sdk.SeededModel;
}

function memory(name: string): sdk.SeededWorkstreamSummary {
  return {
    name,
    annotations: [{ type: 'SUMMARY', text: `${name}: the walker saved this` }],
    model: {
      id: randomUUID(),
      version: '1',
      created: { value: new Date() },
      name: 'walker',
      cloud: false,
      type: 'UNKNOWN',
      usage: 'UNKNOWN',
    },
    applications: { iterable: [APPLICATION] },
  } as sdk.SeededWorkstreamSummary;
}

function newAsset(ctx: Context, raw: string, metadata: Record<string, unknown> = {}): Promise<sdk.Asset> {
  return new sdk.AssetsApi(ctx.config).assetsCreateNewAsset({ seed: textSeed(raw, metadata) });
}

/** A conversation made from an asset (so it has a first message): its id and that message's. */
async function conversationWithMessage(ctx: Context): Promise<{ conversation: string; message: string }> {
  const made = await new sdk.ConversationsApi(ctx.config).conversationsCreateFromAsset({ asset: ctx.ids.asset });
  const conversation = await new sdk.ConversationApi(ctx.config).conversationGetSpecificConversation({
    conversation: made.conversation.id,
  });
  return { conversation: conversation.id, message: conversation.messages.iterable[0].id };
}

/** The records whose ids the walk puts in paths, made through the SDK first. */
async function seed(ctx: Context): Promise<void> {
  const context = await new sdk.ConnectorApi(ctx.config).connect({
    seededConnectorConnection: { application: { name: 'OPEN_SOURCE', version: '1.0.0', platform: 'LINUX' } },
  });
  ctx.application = context.application;
  ctx.ids.application = context.application.id;
  const asset = await newAsset(ctx, 'def walked():\n    return 1\n', {
    name: 'walked',
    tags: [{ text: 'walker' }],
    websites: [{ url: 'https://walker.example/docs', name: 'walker docs' }],
    annotations: [{ type: 'DESCRIPTION', text: 'what the walker walks' }],
  });
  ctx.ids.asset = asset.id;
  ctx.ids.format = asset.formats.iterable![0].id;
  ctx.ids.tag = asset.tags!.iterable[0].id;
  ctx.ids.website = asset.websites!.iterable[0].id;
  ctx.ids.annotation = asset.annotations!.iterable[0].id;
  const { conversation, message } = await conversationWithMessage(ctx);
  ctx.ids.conversation = conversation;
  ctx.ids.message = message;
  ctx.ids.additional_message = message;
  ctx.ids.anchor = (
    await new sdk.AnchorsApi(ctx.config).anchorsCreateNewAnchor({
      seededAnchor: { type: 'FILE', fullpath: '/tmp/walker.py' },
    })
  ).id;
  ctx.ids.workstream_summary = (
    await new sdk.WorkstreamSummariesApi(ctx.config).workstreamSummariesCreateNewWorkstreamSummary({
      seededWorkstreamSummary: memory('walker memory'),
    })
  ).id;
  // Records of the collections (issue 42), when the server serves them: the walk judges their operations either way.
  const optional = async (make: () => Promise<string>) => make().catch(() => randomUUID());
  ctx.ids.range = await optional(
    async () =>
      (
        await new sdk.RangesApi(ctx.config).rangesCreateNewRange({
          seededRange: { from: { value: new Date(Date.now() - 60_000) }, to: { value: new Date() } },
        })
      ).id,
  );
  await new sdk.ConversationApi(ctx.config)
    .conversationAssociateGroundingTemporalRangeWorkstream({ conversation, range: ctx.ids.range })
    .catch(() => undefined);
  ctx.ids.anchor_point = await optional(
    async () =>
      (await new sdk.AnchorApi(ctx.config).anchorSpecificAnchorSnapshot({ anchor: ctx.ids.anchor })).points.iterable[0]
        .id,
  );
  ctx.ids.activity = await optional(
    async () =>
      (await new sdk.ActivitiesApi(ctx.config).activitiesCreateNewActivity({ seededActivity: activity(ctx) })).id,
  );
  const [model] = (await new sdk.ModelsApi(ctx.config).modelsSnapshot()).iterable;
  ctx.ids.model = model.id;
  ctx.ids.model_unique = model.unique!;
  ctx.ids.schema_version = (
    await new sdk.ModelContextProtocolApi(ctx.config).modelContextProtocolSchemaVersions()
  ).iterable![0].version!;
}

/** Operations that change what others read run after them, in this order; the process-wide ones last. */
function order(op: ParsedOperation): number {
  if (op.operationId === 'osTerminate') return 4;
  if (op.operationId === 'osRestart') return 3;
  if (/delete|disassociate|signout|clear|unload|cancel|uninstall|revoke|disconnect/i.test(op.operationId)) return 2;
  return 1;
}

async function call(ctx: Context, op: ParsedOperation): Promise<Answer> {
  let real: Record<string, unknown>;
  try {
    real = REAL[op.operationId] ? await REAL[op.operationId](ctx) : {};
  } catch (error) {
    return { status: 0, problem: `making its records failed: ${(error as Error).message}` };
  }
  const params: Record<string, unknown> = {
    ...exampleParameters(op.api, op.operationId, op.body?.param ?? null),
    ...Object.fromEntries(op.pathParams.map((p) => [p.param, ctx.ids[p.name] ?? randomUUID()])),
    ...real,
  };
  const client = api(ctx, op.api) as unknown as Api;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 15_000);
  try {
    const res = await client[`${op.operationId}Raw`](params, { signal: abort.signal });
    if (op.answer === 'void' && res.raw.headers.get('content-type')?.includes('text/event-stream')) {
      await res.raw.body?.cancel(); // an SSE stream: its headers are the answer
      return { status: res.raw.status };
    }
    try {
      await res.value();
      return { status: res.raw.status };
    } catch (error) {
      return { status: res.raw.status, problem: `the SDK cannot read the answer: ${(error as Error).message}` };
    }
  } catch (error) {
    if (error instanceof sdk.ResponseError) {
      const text = await error.response.text();
      let json: Answer['json'];
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: error.response.status, json, text };
    }
    return { status: 0, problem: `the SDK call failed: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

/** A WebSocket operation: opened with `ws`; its first frame (qgpt: the first answer to a question), or the answer to the upgrade. */
function open(baseUrl: string, ctx: Context, op: ParsedOperation): Promise<Answer> {
  const path = op.pathParams.reduce((p, { name }) => p.replace(`{${name}}`, ctx.ids[name] ?? randomUUID()), op.path);
  return new Promise((resolve) => {
    const socket = new WebSocket(baseUrl.replace(/^http/, 'ws') + path);
    const done = (answer: Answer) => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      resolve(answer);
    };
    const timer = setTimeout(() => done({ status: 'open', problem: 'no first frame within 5 s' }), 5000);
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        let json: Answer['json'];
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        done({ status: response.statusCode ?? 0, json, text });
      });
    });
    socket.on('open', () => {
      if (op.operationId === 'qgptStream')
        socket.send(JSON.stringify({ question: { query: 'what does walked return?', relevant: { iterable: [] } } }));
    });
    socket.on('message', (data) => done({ status: 'open', text: data.toString() }));
    socket.on('error', (error) => done({ status: 0, problem: `the socket failed: ${error.message}` }));
  });
}

/** What is wrong with an answer, or null. */
function judge(op: ParsedOperation, answer: Answer): string | null {
  const name = `${op.method} ${op.path} (${op.operationId})`;
  if (answer.problem) return `${name}: ${answer.problem}`;
  const message =
    typeof answer.json?.message === 'string' ? answer.json.message : JSON.stringify(answer.json?.message ?? '');
  if (answer.status === 'open') return null;
  if (answer.status === 501) {
    if (answer.json?.statusCode !== 501 || answer.json.error !== 'Not Implemented')
      return `${name}: a 501 that is not the JSON error: ${answer.text}`;
    if (!message.includes(op.operationId) || !/is not offered by Trove: .{20,}/.test(message))
      return `${name}: a 501 that does not name it and say why: ${message}`;
    return null;
  }
  if (answer.status >= 500 || answer.status === 0) return `${name}: ${answer.status} ${answer.text ?? ''}`;
  if (
    answer.status === 404 &&
    (!answer.json || /^Cannot (GET|POST|HEAD)\b/.test(message) || /no WebSocket stream/.test(message))
  )
    return `${name}: a route-not-found 404: ${answer.text}`;
  // MCP's own transport answers JSON-RPC errors (a request outside a session, say): its meaning.
  const jsonRpc =
    op.api === 'ModelContextProtocolApi' && (answer.json as { jsonrpc?: string } | undefined)?.jsonrpc === '2.0';
  if (answer.status >= 400 && answer.json?.statusCode !== answer.status && !jsonRpc)
    return `${name}: a ${answer.status} without the JSON error: ${answer.text}`;
  if (REAL[op.operationId] && !(answer.status >= 200 && answer.status < 300))
    return `${name}: answered ${answer.status} to a real request: ${answer.text}`;
  return null;
}

describe('every operation of the official TypeScript SDK', () => {
  const server = useTestServer();
  const operations = sdkOperations();

  it('is the committed table (src/common/wire/sdk-operations.ts: run node scripts/gen-sdk-operations.js after an SDK upgrade)', () => {
    expect(operations.length).toBe(586);
    expect(operations.map(tableRow)).toEqual(SDK_OPERATIONS);
  });

  it("reads them from the SDK's own API classes: every <operation>Raw method of every API class it exports", () => {
    const methods: string[] = [];
    for (const [name, value] of Object.entries(SDK)) {
      if (typeof value !== 'function' || !(value.prototype instanceof sdk.BaseAPI)) continue;
      for (const method of Object.getOwnPropertyNames(value.prototype))
        if (method.endsWith('Raw')) methods.push(`${name}.${method.slice(0, -3)}`);
    }
    expect(methods.sort()).toEqual(operations.map((op) => `${op.api}.${op.operationId}`).sort());
  });

  it('answers each with its meaning or a JSON 501 that names it and says why; never a route-not-found 404, never another 5xx', async () => {
    const ctx: Context = {
      ids: {},
      application: APPLICATION as unknown as sdk.Application,
      config: new sdk.Configuration({ basePath: server.baseUrl, fetchApi }),
    };
    await seed(ctx);
    const problems: string[] = [];
    const tally: Record<string, number> = {};
    for (const op of [...operations].sort((a, b) => order(a) - order(b))) {
      const answer = op.websocket ? await open(server.baseUrl, ctx, op) : await call(ctx, op);
      const kind = answer.status === 'open' ? 'open' : answer.status === 501 ? '501' : `${String(answer.status)[0]}xx`;
      tally[kind] = (tally[kind] ?? 0) + 1;
      if (process.env.WALK_DEBUG && answer.status !== 'open' && (answer.status < 200 || answer.status >= 300))
        console.log(
          `${answer.status} ${op.method} ${op.path} ${op.operationId} ${String(answer.json?.message ?? answer.problem ?? '').slice(0, 160)}`,
        );
      const problem = judge(op, answer);
      if (problem) problems.push(problem);
      if (op.operationId === 'osRestart') await waitForHealth(server.baseUrl);
    }
    console.log(`walked ${operations.length} SDK operations: ${JSON.stringify(tally)}`);
    expect(problems).toEqual([]);
    // The walk means something: most of what Trove serves answered 2xx, and every stream it serves opened.
    expect(tally['2xx']).toBeGreaterThan(100);
    expect(tally.open).toBeGreaterThanOrEqual(8);
  }, 120_000);
});

async function waitForHealth(baseUrl: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${baseUrl}/.well-known/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not come back after GET /os/restart');
}

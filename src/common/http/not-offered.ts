import { SdkOperation } from '../wire/sdk-operations';

/**
 * Why Trove does not offer an operation of the official SDK, in one sentence, by kind: what
 * the JSON 501 of an SDK operation Trove does not serve says (UnservedOperations). Every
 * operation of the SDK has a reason here (test/unit/not-offered.spec.ts), served or not: an
 * operation Trove starts serving simply stops reaching it.
 */
const CLOUD =
  'it is a Pieces cloud or account feature (accounts, cloud allocations, sign-in providers, shared links, distributions), and Trove is a local service with no Pieces cloud behind it';
const DESKTOP =
  'it drives the desktop of the machine running Pieces OS (native dialogs, windows, the browser, OS permissions, notifications and settings), and Trove is a headless server that may run on another machine';
const SCREEN_MEMORY =
  "it belongs to Pieces' screen-capture long-term memory (captured windows, vision events, workstream events and suggestions), and Trove captures nothing: its memory is what clients save (snippets, conversations, workstream summaries)";
const RUNTIMES =
  'it installs or updates a model runtime (Ollama, Foundry Local) on the desktop, and Trove installs none: it talks to the runtimes its operator configures (TROVE_OLLAMA_URL, TROVE_OPENAI_URL, TROVE_GGUF_PATHS)';
const BACKUPS =
  "it is Pieces' backup and database service, and Trove keeps its store with its own tools: `trove backup` / `trove restore`, and GET /trove/export with POST /trove/import";
const ANALYSES =
  'Trove keeps text snippets only: it runs no image, OCR or code analysis and keeps no analysis or usage-metrics records';
const PERSONS =
  'Trove keeps no person records: in Pieces they come from cloud accounts and integrations, which Trove does not have';
const HINTS = 'Trove keeps no hint records: suggested questions are made on demand by POST /qgpt/hints';
const RELATIONSHIPS = 'Trove keeps no relationship graph between records';
const SENSITIVES =
  'Trove finds secrets in assets itself, at every change of their text (GET /sensitives lists them, POST /sensitives/{sensitive}/delete dismisses one): a client neither creates nor edits them';
const DISCOVERY =
  'Trove saves the snippets a client sends (POST /assets/create) and generates their tags itself; it offers no bulk discovery from files or web pages';
const GENERATION =
  "Trove's language engine does not offer this generation (persona details and technical-language segmentation are Pieces cloud models)";
const PROVIDER_KEYS =
  "model providers and their API keys are Trove's configuration (TROVE_OPENAI_URL, TROVE_OPENAI_API_KEY, TROVE_OLLAMA_URL), set by its operator, not through the API";
const UPDATES = 'Trove is updated by the package manager or image it was installed with, never by itself';
const OWN_POINT =
  "Trove keeps one path per anchor (its one point): an anchor's path changes with POST /anchor/update, and another path is an anchor of its own (POST /anchors/create)";
const NOT_SEARCHED =
  'Trove searches assets (GET /assets/search, /search/*), workstream summaries, tags and websites; conversations, messages, anchors and annotations have no search of their own (POST /qgpt/relevance searches the whole store)';
const ON_ASSET_STREAMS = (what: string) =>
  `Trove announces a change of ${what} on the asset streams (the asset's id on /assets/stream/identifiers), not on a stream of their own`;
const NO_DOWNLOADS =
  'Trove downloads no model at run time: its models are the offline engine, the GGUF files and the runtimes its operator configures (TROVE_GGUF_PATHS, TROVE_OLLAMA_URL, TROVE_OPENAI_URL)';
const APPLICATIONS =
  'Trove records an application when it connects (POST /connect), lists them in GET /applications, and keeps no sessions or registrations of them';
const OWNED_ANNOTATION =
  'an annotation belongs to the one asset or conversation it was made for (POST /annotations/create names it): Trove neither moves nor shares it';
const INTEGRATIONS =
  'it imports from an integration Trove does not have (GitHub gists through a linked account, the macOS share extension, Ultra Suite)';

/** The kind of most operations of an API class (operations below may say more precisely). */
const BY_API: Record<string, string> = {
  AllocationApi: CLOUD,
  AllocationsApi: CLOUD,
  Auth0Api: CLOUD,
  PKCEApi: CLOUD,
  LinkifyApi: CLOUD,
  ShareApi: CLOUD,
  SharesApi: CLOUD,
  DistributionApi: CLOUD,
  DistributionsApi: CLOUD,
  UsersApi: CLOUD,
  UserApi: CLOUD,
  PieceApi: CLOUD,
  GithubApi: INTEGRATIONS,
  MacOSApi: INTEGRATIONS,
  UltraSuiteApi: INTEGRATIONS,
  NotificationsApi: DESKTOP,
  OSApi: DESKTOP,
  AppletApi: DESKTOP,
  WorkstreamApi: SCREEN_MEMORY,
  WorkstreamEventApi: SCREEN_MEMORY,
  WorkstreamEventsApi: SCREEN_MEMORY,
  WorkstreamPatternEngineApi: SCREEN_MEMORY,
  WorkstreamPatternEngineSourceApi: SCREEN_MEMORY,
  WorkstreamPatternEngineSourcesApi: SCREEN_MEMORY,
  WorkstreamPatternEngineSourceWindowApi: SCREEN_MEMORY,
  WorkstreamPatternEngineSourceWindowsApi: SCREEN_MEMORY,
  OllamaApi: RUNTIMES,
  FoundryApi: RUNTIMES,
  BackupApi: BACKUPS,
  BackupsApi: BACKUPS,
  DatabaseApi: BACKUPS,
  AnalysesApi: ANALYSES,
  CodeAnalysesApi: ANALYSES,
  ImageAnalysesApi: ANALYSES,
  OCRAnalysesApi: ANALYSES,
  MetricsApi: ANALYSES,
  ClassificationApi:
    'Trove keeps text formats only, so there is no other generic classification to convert a format to',
  PersonApi: PERSONS,
  PersonsApi: PERSONS,
  HintApi: HINTS,
  HintsApi: HINTS,
  RelationshipApi: RELATIONSHIPS,
  RelationshipsApi: RELATIONSHIPS,
  SensitiveApi: SENSITIVES,
  SensitivesApi: SENSITIVES,
  DiscoveryApi: DISCOVERY,
  MachineLearningApi: GENERATION,
  ExternalProviderApi: PROVIDER_KEYS,
  OpenAIApi:
    'Trove lists the models of the providers its operator configured in GET /models; it reads no OpenAI account of its own',
};

/** Operations whose reason is not their API class's (or whose class has none). */
const BY_OPERATION: Record<string, string> = {
  osUpdateCheck: UPDATES,
  osUpdateCheckStream: UPDATES,
  streamAppletVersion: UPDATES,
  osTerminate: 'Trove is stopped by whoever started it (its service manager or container), not by a client',
  osNanoModelsPrepare:
    'it prepares the nano models bundled with Pieces OS; Trove bundles none (its offline engine needs no download)',
  osDeviceInformation: DESKTOP,
  osMetadata: DESKTOP,
  osFilesystemFileReadStreamed:
    'Trove reads files only for question answering, under the roots its operator allows (TROVE_QGPT_ROOTS)',
  linkProvider: CLOUD,
  modelUpdate:
    'a model is described by its provider and by Trove, so its record is not edited through the API (custom models are created and deleted)',
  workstreamSummariesCreateAutogeneratedWorkstreamSummary: SCREEN_MEMORY,
  workstreamSummaryRegenerateSpecificSummary:
    'a workstream summary is the text a client saved (an agent memory), not one generated from captured activity, so there is nothing to regenerate',
  conversationsCreateFromWorkstreamSummary:
    'conversations are created empty or from an asset (POST /conversations/create, POST /conversations/create/from_asset/{asset})',
  conversationSpecificConversationPrepare:
    "it warms up Pieces' on-device copilot for a conversation; Trove's answers need no preparation",
  conversationAssociateGroundingWorkstreamPatternEngineSource: SCREEN_MEMORY,
  conversationDisassociateGroundingWorkstreamPatternEngineSource: SCREEN_MEMORY,
  activityUpdate: 'an activity records what happened; Trove does not rewrite it (activities are created and deleted)',
  formatAnalysis: ANALYSES,
  htmlShare: CLOUD,
  anchorPointsCreateNewAnchorPoint: OWN_POINT,
  anchorPointUpdate: OWN_POINT,
  anchorPointsDeleteSpecificAnchorPoint: OWN_POINT,
  anchorPointsStreamIdentifiers:
    "an anchor's point is its path: a change of it is announced on /anchors/stream/identifiers",
  searchAnchors: NOT_SEARCHED,
  searchAnnotations: NOT_SEARCHED,
  searchMessages: NOT_SEARCHED,
  searchConversations: NOT_SEARCHED,
  searchConversationSpecificMessages: NOT_SEARCHED,
  tagsStreamIdentifiers: ON_ASSET_STREAMS("an asset's tags"),
  websitesStreamIdentifiers: ON_ASSET_STREAMS(
    "an asset's websites (a conversation's on /conversations/stream/identifiers)",
  ),
  annotationsStreamIdentifiers: ON_ASSET_STREAMS(
    "an asset's annotations (a conversation's on /conversations/stream/identifiers)",
  ),
  formatsStreamIdentifiers: ON_ASSET_STREAMS("an asset's formats"),
  activitiesStreamIdentifiers:
    'Trove announces no stream of activities: they are read with GET /activities and GET /asset/{asset}/activities',
  conversationMessagesStreamIdentifiers:
    "Trove announces a change of a message on /conversations/stream/identifiers (its conversation's id), not on a stream of its own",
  workstreamSummaryUpdate:
    'a workstream summary is a memory as its client saved it: Trove keeps it unchanged (a new memory is created, an old one deleted)',
  getInstallationPath:
    'it names where Pieces OS is installed on the desktop, and Trove is a server, not a Pieces OS installation',
  modelSpecificModelDownload: NO_DOWNLOADS,
  modelSpecificModelDownloadCancel: NO_DOWNLOADS,
  modelSpecificModelDownloadProgress: NO_DOWNLOADS,
  applicationUpdate: APPLICATIONS,
  applicationsRegister: APPLICATIONS,
  applicationsSessionOpen: APPLICATIONS,
  applicationsSessionClose: APPLICATIONS,
  applicationsSpecificApplicationSnapshot: APPLICATIONS,
  applicationsStreamIdentifiers: APPLICATIONS,
  applicationsBulkUpdateApplicationCapabilities: APPLICATIONS,
  assetAssociateAnnotation: OWNED_ANNOTATION,
  assetDisassociateAnnotation: OWNED_ANNOTATION,
  conversationAssociateAnnotation: OWNED_ANNOTATION,
  conversationDisassociateAnnotation: OWNED_ANNOTATION,
  annotationAssociateAsset: OWNED_ANNOTATION,
  annotationDisassociateAsset: OWNED_ANNOTATION,
  annotationAssociateConversation: OWNED_ANNOTATION,
  annotationDisassociateConversation: OWNED_ANNOTATION,
  applicationsExternalSnapshot: DESKTOP,
  applicationsExternalRelated: DESKTOP,
};

/** The record kinds of the association routes, by their path segment, as the reasons name them. */
const KIND_OF_SEGMENT: Record<string, string> = {
  anchors: 'anchors',
  anchor: 'anchors',
  annotations: 'annotations',
  annotation: 'annotations',
  assets: 'assets',
  asset: 'assets',
  conversations: 'conversations',
  conversation: 'conversations',
  messages: 'messages',
  message: 'messages',
  hints: 'hints',
  hint: 'hints',
  persons: 'persons',
  person: 'persons',
  tags: 'tags',
  tag: 'tags',
  websites: 'websites',
  website: 'websites',
  workstream_events: 'workstream events',
  workstream_event: 'workstream events',
  workstream_summaries: 'workstream summaries',
  workstream_summary: 'workstream summaries',
  ranges: 'ranges',
  range: 'ranges',
  sources: 'workstream pattern engine sources',
  source_windows: 'workstream pattern engine windows',
  source: 'workstream pattern engine sources',
  source_window: 'workstream pattern engine windows',
};

/** The links Trove keeps, for the association routes it does not serve. */
const LINKS_KEPT =
  'Trove links assets to tags, websites and workstream summaries, and conversations to assets, anchors, websites, ranges, grounding messages and workstream summaries';

/** `/tag/{tag}/persons/associate/{person}` -> ['tags', 'persons']. */
function linkedKinds(path: string): [string, string] | null {
  const segments = path.split('/').filter((s) => s && !s.startsWith('{'));
  const at = segments.findIndex((s) => s === 'associate' || s === 'disassociate');
  if (at < 1) return null;
  const owner = KIND_OF_SEGMENT[segments[0] === 'workstream_pattern_engine' ? segments[1] : segments[0]];
  const other = KIND_OF_SEGMENT[segments[at - 1]];
  return owner && other ? [owner, other] : null;
}

const SCORED = 'Trove keeps usage scores for assets and conversations only';

/** Why Trove does not offer `op`, in one sentence (no trailing period); undefined for an operation no rule covers. */
export function whyNotOffered(op: Pick<SdkOperation, 'operationId' | 'path' | 'api'>): string | undefined {
  const explicit = BY_OPERATION[op.operationId];
  if (explicit) return explicit;
  const kind = BY_API[op.api];
  if (kind) return kind;
  const linked = linkedKinds(op.path);
  if (linked) return `Trove keeps no link between ${linked[0]} and ${linked[1]}: ${LINKS_KEPT}`;
  if (/\/scores\/increment$/.test(op.path)) return SCORED;
  return undefined;
}

import Ajv, { SchemaObject } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The fields real clients require (docs/CLIENTS.md, the SDKs' models) as JSON Schemas, with exact JSON types (the
 * Python SDK rejects "true" for a bool and 1.5 for an int). Responses are checked here,
 * independently of the server's own OpenAPI document.
 */
const ts = {
  type: 'object',
  required: ['value', 'readable'],
  properties: {
    value: { type: 'string', format: 'date-time', pattern: 'Z$' },
    readable: { type: 'string', minLength: 1 },
  },
};
const uuid = { type: 'string', format: 'uuid' };
const iterable = (items: SchemaObject) => ({
  type: 'object',
  required: ['iterable'],
  properties: { iterable: { type: 'array', items } },
});
const enumOf = (...values: string[]) => ({ type: 'string', enum: values });
const mechanism = enumOf('UNKNOWN', 'MANUAL', 'RECOMMENDED', 'AUTOMATIC', 'INTERNAL', 'DELETED', 'EXTERNAL_AGENT');
const generic = enumOf('UNKNOWN', 'CODE', 'TEXT', 'IMAGE', 'VIDEO', 'EXTERNAL_RESOURCE_REFERENCE', 'FILE');

const application = {
  type: 'object',
  required: ['id', 'name', 'version', 'platform', 'onboarded', 'privacy'],
  properties: {
    id: uuid,
    name: { type: 'string' },
    version: { type: 'string' },
    platform: enumOf('UNKNOWN', 'WEB', 'MACOS', 'LINUX', 'WINDOWS', 'FUCHSIA', 'IOS', 'ANDROID'),
    onboarded: { type: 'boolean' },
    privacy: enumOf('UNKNOWN', 'OPEN', 'CLOSED', 'ANONYMOUS'),
    capabilities: enumOf('UNKNOWN', 'LOCAL', 'CLOUD', 'BLENDED'),
  },
};
const userProfile = {
  type: 'object',
  required: ['id', 'aesthetics'],
  properties: {
    id: uuid,
    aesthetics: {
      type: 'object',
      required: ['theme', 'font'],
      properties: {
        theme: { type: 'object', required: ['dark'], properties: { dark: { type: 'boolean' } } },
        font: { type: 'object', required: ['size'], properties: { size: { type: 'number' } } },
      },
    },
  },
};
const score = {
  type: 'object',
  required: ['manual', 'automatic'],
  properties: { manual: { type: 'integer' }, automatic: { type: 'integer' } },
};
const assetCommon = {
  id: uuid,
  name: { type: 'string' },
  creator: { type: 'string', minLength: 1 },
  created: ts,
  updated: ts,
  mechanism,
  favorited: { type: 'boolean' },
  pseudo: { type: 'boolean' },
  score,
};
const assetRequired = ['id', 'creator', 'created', 'updated', 'formats', 'preview', 'original', 'mechanism'];
const flattenedAsset = {
  type: 'object',
  required: assetRequired,
  properties: {
    ...assetCommon,
    formats: iterable({ type: 'object', required: ['id'], properties: { id: uuid } }),
    preview: { type: 'object', required: ['base'], properties: { base: uuid } },
    original: uuid,
  },
};
const formatCommon = {
  id: uuid,
  creator: { type: 'string' },
  classification: {
    type: 'object',
    required: ['generic', 'specific'],
    properties: { generic, specific: { type: 'string' } },
  },
  role: enumOf('UNKNOWN', 'ORIGINAL', 'ADDITIONAL', 'BOTH', 'PREVIEW'),
  application,
  bytes: {
    type: 'object',
    required: ['value', 'readable'],
    properties: { value: { type: 'integer' }, readable: { type: 'string' } },
  },
  created: ts,
  updated: ts,
  fragment: {
    type: 'object',
    required: ['string'],
    properties: { string: { type: 'object', required: ['raw'], properties: { raw: { type: 'string' } } } },
  },
};
const formatRequired = [
  'id',
  'creator',
  'classification',
  'role',
  'application',
  'asset',
  'bytes',
  'created',
  'updated',
];
const format = { type: 'object', required: formatRequired, properties: { ...formatCommon, asset: flattenedAsset } };
const flattenedFormat = { type: 'object', required: formatRequired, properties: { ...formatCommon, asset: uuid } };
const referencedFormat = { type: 'object', required: ['id'], properties: { id: uuid, reference: flattenedFormat } };
const tag = {
  type: 'object',
  required: ['id', 'text', 'created', 'updated', 'category'],
  properties: {
    id: uuid,
    text: { type: 'string' },
    created: ts,
    updated: ts,
    category: enumOf('UNKNOWN', 'HANDLE', 'EMAIL'),
  },
};
const website = {
  type: 'object',
  required: ['id', 'url', 'name', 'created', 'updated'],
  properties: { id: uuid, url: { type: 'string' }, name: { type: 'string' }, created: ts, updated: ts },
};
const annotation = {
  type: 'object',
  required: ['id', 'created', 'updated', 'type', 'text'],
  properties: {
    id: uuid,
    created: ts,
    updated: ts,
    type: enumOf('UNKNOWN', 'DESCRIPTION', 'COMMENT', 'DOCUMENTATION', 'SUMMARY', 'EXPLANATION', 'GIT_COMMIT'),
    text: { type: 'string' },
  },
};
const asset = {
  type: 'object',
  required: assetRequired,
  properties: {
    ...assetCommon,
    formats: iterable(format),
    preview: { type: 'object', required: ['base'], properties: { base: referencedFormat } },
    original: referencedFormat,
    tags: iterable(tag),
    websites: iterable(website),
    annotations: iterable(annotation),
  },
};

export const schemas: Record<string, SchemaObject> = {
  GroupedTimestamp: ts,
  Application: application,
  Asset: asset,
  Assets: iterable(asset),
  Format: format,
  Formats: iterable(format),
  FlattenedAssets: {
    type: 'object',
    required: ['iterable'],
    properties: {
      iterable: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: uuid } } },
      indices: { type: 'object' },
    },
  },
  Applications: iterable(application),
  User: { type: 'object', required: ['user'], properties: { user: userProfile } },
  UserProfile: userProfile,
  Users: iterable(userProfile),
  ModelDownloadProgress: {
    type: 'object',
    required: ['status'],
    properties: {
      status: enumOf('UNKNOWN', 'INITIALIZED', 'IN-PROGRESS', 'COMPLETED', 'FAILED', 'CANCELED', 'RESET'),
      percentage: { type: ['number', 'null'], minimum: 0, maximum: 100 },
    },
  },
};

// Issue 3 (assets): PseudoAssets, Seed, Activities, ExportedAsset, workstream summaries on the Asset.
const model = {
  type: 'object',
  required: ['id', 'version', 'created', 'name', 'cloud', 'type', 'usage'],
  properties: {
    id: uuid,
    version: { type: 'string' },
    created: ts,
    name: { type: 'string' },
    cloud: { type: 'boolean' },
    type: { type: 'string' },
    usage: { type: 'string' },
  },
};
const workstreamSummary = {
  type: 'object',
  required: ['id', 'created', 'updated', 'name', 'model'],
  properties: { id: uuid, created: ts, updated: ts, name: { type: 'string' }, model },
};
(asset.properties as Record<string, SchemaObject>).summaries = iterable(workstreamSummary);
const fullScore = {
  type: 'object',
  required: ['manual', 'automatic'],
  properties: Object.fromEntries(
    ['manual', 'automatic', 'reuse', 'update', 'reference', 'priority', 'searched'].map((k) => [
      k,
      { type: 'integer', minimum: 0 },
    ]),
  ),
};
for (const a of [asset, flattenedAsset]) (a.properties as Record<string, SchemaObject>).score = fullScore;
const idDescription = { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: { type: 'string' } };
const activity = {
  type: 'object',
  required: ['id', 'created', 'updated', 'event', 'application', 'mechanism'],
  properties: {
    id: uuid,
    created: ts,
    updated: ts,
    mechanism,
    application,
    asset: flattenedAsset,
    event: {
      type: 'object',
      minProperties: 1,
      properties: {
        asset: {
          type: 'object',
          required: ['asset', 'identifier_description_pair'],
          properties: {
            asset: { type: 'object', required: ['id'], properties: { id: uuid } },
            identifier_description_pair: idDescription,
            metadata: { type: 'object' },
          },
        },
        assets: {
          type: 'object',
          required: ['identifier_description_pair'],
          properties: { identifier_description_pair: idDescription, metadata: { type: 'object' } },
        },
      },
    },
  },
};
schemas.PseudoAssets = {
  type: 'object',
  required: ['identifiers'],
  properties: { identifiers: schemas.FlattenedAssets },
};
// Read on its own, a WorkstreamSummary carries what it holds (optional: embedded in an Asset it is a reference).
const flat = (items: SchemaObject) => ({ ...iterable(items), required: ['iterable', 'indices'] });
const referenced = (reference: SchemaObject) => ({
  type: 'object',
  required: ['id', 'reference'],
  properties: { id: uuid, reference },
});
const summaryParts = {
  annotations: flat(
    referenced({
      ...annotation,
      required: [...annotation.required, 'summary'],
      properties: {
        ...annotation.properties,
        type: enumOf('SUMMARY', 'DESCRIPTION'),
        summary: { type: 'object', required: ['id'], properties: { id: uuid } },
      },
    }),
  ),
  websites: flat(referenced(website)),
  anchors: flat(
    referenced({
      type: 'object',
      required: ['id', 'type', 'points', 'created', 'updated'],
      properties: {
        id: uuid,
        type: enumOf('FILE', 'DIRECTORY'),
        created: ts,
        updated: ts,
        points: flat(
          referenced({
            type: 'object',
            required: ['id', 'fullpath', 'anchor', 'created', 'updated'],
            properties: {
              id: uuid,
              fullpath: { type: 'string', minLength: 1 },
              anchor: { type: 'object', required: ['id'] },
              created: ts,
              updated: ts,
            },
          }),
        ),
      },
    }),
  ),
  assets: flat({ type: 'object', required: ['id'], properties: { id: uuid } }),
  sources: flat(
    referenced({
      type: 'object',
      required: ['id', 'raw', 'name', 'created', 'updated'],
      properties: {
        id: uuid,
        raw: { type: 'object', properties: { name: { type: 'string' }, application: { type: 'string' } } },
        name: { type: 'string' },
        created: ts,
        updated: ts,
      },
    }),
  ),
};
Object.assign(workstreamSummary.properties, summaryParts);
schemas.WorkstreamSummary = workstreamSummary;
/** A summary read on its own: everything it holds is there. */
schemas.FullWorkstreamSummary = {
  ...workstreamSummary,
  required: [...workstreamSummary.required, ...Object.keys(summaryParts)],
};
schemas.WorkstreamSummaries = iterable(schemas.FullWorkstreamSummary);
schemas.SearchedWorkstreamSummaries = iterable({
  type: 'object',
  required: ['identifier', 'summary', 'exact', 'similarity'],
  properties: {
    identifier: uuid,
    summary: schemas.FullWorkstreamSummary,
    exact: { type: 'boolean' },
    similarity: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
  },
});
schemas.Activities = iterable(activity);
schemas.ExportedAsset = {
  type: 'object',
  required: ['name', 'description', 'created', 'raw'],
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    created: ts,
    raw: {
      type: 'object',
      required: ['string'],
      properties: {
        string: { type: 'object', required: ['raw'], properties: { raw: { type: 'string', minLength: 1 } } },
      },
    },
  },
};
schemas.Seed = {
  type: 'object',
  required: ['type', 'asset'],
  properties: {
    type: enumOf('UNKNOWN', 'SEEDED_FORMAT', 'SEEDED_ASSET'),
    asset: {
      type: 'object',
      required: ['format'],
      properties: {
        application,
        format: {
          type: 'object',
          properties: {
            classification: {
              type: 'object',
              required: ['generic', 'specific'],
              properties: { generic, specific: { type: 'string' } },
            },
          },
        },
        metadata: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            tags: {
              type: 'array',
              items: {
                type: 'object',
                required: ['text'],
                properties: { text: { type: 'string', minLength: 1 }, mechanism },
              },
            },
          },
        },
      },
    },
  },
};

// Conversations (the clients' Conversation, ConversationMessage; SDK: FlattenedConversations, ConversationMessages).
const identified = { type: 'object', required: ['id'], properties: { id: uuid } };
/** Anchor: a file or directory; each point's reference has the path (FlattenedAnchorPoint). */
const anchor = {
  type: 'object',
  required: ['id', 'type', 'points', 'created', 'updated'],
  properties: {
    id: uuid,
    type: enumOf('UNKNOWN', 'FILE', 'DIRECTORY'),
    created: ts,
    updated: ts,
    points: iterable({
      type: 'object',
      required: ['id'],
      properties: {
        id: uuid,
        reference: {
          type: 'object',
          required: ['id', 'fullpath', 'created', 'updated', 'anchor'],
          properties: {
            id: uuid,
            fullpath: { type: 'string' },
            created: ts,
            updated: ts,
            anchor: { type: 'object', required: ['id'], properties: { id: uuid } },
          },
        },
      },
    }),
  },
};
const orderIndices = { type: 'object', additionalProperties: { type: 'integer', minimum: -1 } };
const conversation = {
  type: 'object',
  required: ['id', 'created', 'updated', 'messages', 'type'],
  properties: {
    id: uuid,
    name: { type: 'string' },
    created: ts,
    updated: ts,
    favorited: { type: 'boolean' },
    type: enumOf('UNKNOWN', 'COPILOT'),
    messages: {
      type: 'object',
      required: ['iterable', 'indices'],
      properties: { iterable: { type: 'array', items: identified }, indices: orderIndices },
    },
    annotations: iterable({ type: 'object', required: ['id'], properties: { id: uuid, reference: annotation } }),
    assets: iterable({ type: 'object', required: ['id'], properties: { id: uuid, reference: flattenedAsset } }),
    websites: iterable({ type: 'object', required: ['id'], properties: { id: uuid, reference: website } }),
    anchors: iterable({
      type: 'object',
      required: ['id'],
      properties: {
        id: uuid,
        reference: anchor,
      },
    }),
    summaries: iterable(identified),
    grounding: {
      type: 'object',
      properties: {
        messages: iterable(identified),
        temporal: { type: 'object', required: ['workstreams'], properties: { workstreams: iterable(identified) } },
      },
    },
    score,
  },
};
const conversationMessage = {
  type: 'object',
  required: ['id', 'created', 'updated', 'conversation', 'role'],
  properties: {
    id: uuid,
    created: ts,
    updated: ts,
    deleted: ts,
    conversation: identified,
    role: enumOf('UNKNOWN', 'USER', 'SYSTEM', 'ASSISTANT'),
    fragment: {
      type: 'object',
      required: ['string'],
      properties: { string: { type: 'object', required: ['raw'], properties: { raw: { type: 'string' } } } },
    },
  },
};
Object.assign(schemas, {
  Conversation: conversation,
  Conversations: iterable(conversation),
  FlattenedConversations: iterable(identified),
  ConversationMessage: conversationMessage,
  Annotation: annotation,
  Anchor: anchor,
  ConversationMessages: {
    type: 'object',
    required: ['iterable', 'indices'],
    properties: { iterable: { type: 'array', items: conversationMessage }, indices: orderIndices },
  },
  ConversationsCreateFromAssetOutput: {
    type: 'object',
    required: ['conversation'],
    properties: { conversation: identified },
  },
  ConversationSummarizeOutput: {
    type: 'object',
    required: ['conversation', 'annotation'],
    properties: { conversation: identified, annotation: identified },
  },
});

// Search (src/modules/search): SearchedAssets, AssetsSearchWithFiltersOutput.
const searchedAsset = {
  type: 'object',
  required: ['exact', 'score', 'match', 'identifier'],
  properties: {
    asset,
    exact: { type: 'boolean' },
    score: { type: 'number' },
    match: enumOf(
      'UNKNOWN',
      'TITLE',
      'ANNOTATION',
      'HINT',
      'CONTENT',
      'FUZZY',
      'MULTIPLE',
      'TAGS',
      'WEBSITES',
      'PERSONS',
    ),
    identifier: uuid,
  },
};
const searchedAssets = {
  type: 'object',
  required: ['iterable', 'suggested', 'exact'],
  properties: {
    iterable: { type: 'array', items: searchedAsset },
    suggested: { type: 'integer', minimum: 0 },
    exact: { type: 'integer', minimum: 0 },
  },
};
Object.assign(schemas, {
  SearchedAsset: searchedAsset,
  SearchedAssets: searchedAssets,
  AssetsSearchWithFiltersOutput: { type: 'object', required: ['results'], properties: { results: searchedAssets } },
});

// Question answering and models (src/modules/qgpt, src/modules/models).
const qgptAnswers = {
  type: 'object',
  required: ['answers'],
  properties: {
    answers: iterable({
      type: 'object',
      required: ['score', 'text'],
      properties: { score: { type: 'number' }, text: { type: 'string' } },
    }),
  },
};
const relevantSeed = {
  type: 'object',
  required: ['id', 'seed'],
  properties: {
    id: uuid,
    path: { type: 'string' },
    asset: identified,
    score: { type: 'number', minimum: 0, maximum: 1 },
    seed: {
      type: 'object',
      required: ['type', 'asset'],
      properties: {
        type: enumOf('SEEDED_ASSET'),
        asset: {
          type: 'object',
          required: ['application', 'format'],
          properties: {
            application,
            format: {
              type: 'object',
              required: ['fragment'],
              properties: {
                fragment: {
                  type: 'object',
                  required: ['string'],
                  properties: {
                    string: { type: 'object', required: ['raw'], properties: { raw: { type: 'string' } } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};
const fullModel = {
  type: 'object',
  required: [
    'id',
    'version',
    'created',
    'name',
    'cloud',
    'type',
    'usage',
    'foundation',
    'unique',
    'provider',
    'cpu',
    'downloaded',
    'loaded',
    'maxTokens',
    'custom',
  ],
  properties: {
    id: uuid,
    version: { type: 'string' },
    created: ts,
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    cloud: { type: 'boolean' },
    type: enumOf('UNKNOWN', 'BALANCED', 'SPEED', 'ACCURACY'),
    usage: { type: 'string', enum: ['CODE_CONVERSATION', 'TEXT_EMBEDDING'] },
    foundation: { type: 'string' },
    unique: { type: 'string' },
    provider: { type: 'string' },
    cpu: { type: 'boolean' },
    downloaded: { type: 'boolean' },
    loaded: { type: 'boolean' },
    downloading: { type: 'boolean' },
    custom: { type: 'boolean' },
    parameters: { type: 'number' },
    bytes: {
      type: 'object',
      required: ['value', 'readable'],
      properties: { value: { type: 'integer' }, readable: { type: 'string' } },
    },
    maxTokens: {
      type: 'object',
      required: ['total'],
      properties: {
        total: { type: ['integer', 'null'] },
        input: { type: ['integer', 'null'] },
        output: { type: ['integer', 'null'] },
      },
    },
  },
};
const streamOutput = {
  type: 'object',
  required: ['conversation', 'status'],
  properties: {
    request: { type: 'string' },
    conversation: { type: 'string' },
    status: enumOf('IN-PROGRESS', 'COMPLETED', 'FAILED', 'STOPPED', 'RESET', 'CANCELED', 'INITIALIZED'),
    question: qgptAnswers,
    statusCode: { type: 'integer' },
    errorMessage: { type: 'string' },
  },
};
Object.assign(schemas, {
  QGPTQuestionOutput: qgptAnswers,
  QGPTRelevanceOutput: {
    type: 'object',
    required: ['relevant'],
    properties: { relevant: iterable(relevantSeed), answer: qgptAnswers },
  },
  QGPTRepromptOutput: { type: 'object', required: ['query'], properties: { query: { type: 'string', minLength: 1 } } },
  QGPTPersonsRelatedOutput: {
    type: 'object',
    required: ['persons'],
    properties: { persons: iterable({ type: 'object' }) },
  },
  QGPTStreamOutput: streamOutput,
  Model: fullModel,
  Models: iterable(fullModel),
  ModelDeleteCacheOutput: { type: 'object', required: ['model'], properties: { model: identified } },
});

// Records as collections of their own (issue 42): tags, websites, annotations, activities,
// anchors and their points, ranges, messages, persons and sensitives. Required fields as both
// SDKs have them (the strict Python models were checked against the same responses).
const flatIds = {
  type: 'object',
  required: ['iterable', 'indices'],
  properties: { iterable: { type: 'array', items: identified }, indices: orderIndices },
};
const tagRecord = { ...tag, required: [...tag.required, 'assets'], properties: { ...tag.properties, assets: flatIds } };
const websiteRecord = {
  ...website,
  required: [...website.required, 'assets'],
  properties: { ...website.properties, assets: flatIds, conversations: flatIds },
};
const searched = (key: string, item: SchemaObject) =>
  iterable({
    type: 'object',
    required: ['identifier', key, 'exact', 'similarity'],
    properties: {
      identifier: uuid,
      [key]: item,
      exact: { type: 'boolean' },
      similarity: { type: 'number', minimum: 0, maximum: 1 },
    },
  });
const anchorRecord = {
  ...anchor,
  required: [...anchor.required, 'conversations'],
  properties: { ...anchor.properties, conversations: flatIds },
};
const anchorPoint = (
  anchor.properties.points as unknown as {
    properties: { iterable: { items: { properties: { reference: SchemaObject } } } };
  }
).properties.iterable.items.properties.reference;
const range = {
  type: 'object',
  required: ['id', 'created', 'updated', 'conversations'],
  properties: {
    id: uuid,
    created: ts,
    updated: ts,
    from: ts,
    to: ts,
    between: { type: 'boolean' },
    conversations: flatIds,
  },
};
const recordAnnotation = {
  ...annotation,
  properties: { ...annotation.properties, asset: identified, conversation: identified, mechanism },
};
const reportedActivity = {
  ...activity,
  properties: { ...activity.properties, event: { type: 'object', minProperties: 1 } },
};
Object.assign(schemas, {
  Tag: tagRecord,
  Tags: iterable(tagRecord),
  Website: websiteRecord,
  Websites: iterable(websiteRecord),
  ExistingMetadata: {
    type: 'object',
    additionalProperties: false,
    properties: {
      tag: { type: 'object', required: ['id', 'reference'], properties: { id: uuid, reference: tagRecord } },
      website: { type: 'object', required: ['id', 'reference'], properties: { id: uuid, reference: websiteRecord } },
    },
  },
  SearchedTags: searched('tag', tagRecord),
  SearchedWebsites: searched('website', websiteRecord),
  RecordAnnotation: recordAnnotation,
  Annotations: iterable(recordAnnotation),
  Activity: reportedActivity,
  AllActivities: iterable(reportedActivity),
  FlattenedActivities: iterable(identified),
  AnchorRecord: anchorRecord,
  Anchors: iterable(anchorRecord),
  AnchorPoint: anchorPoint,
  AnchorPoints: iterable(anchorPoint),
  Range: range,
  Ranges: iterable(range),
  AllMessages: iterable(conversationMessage),
  NoRecords: { type: 'object', required: ['iterable'], properties: { iterable: { type: 'array', maxItems: 0 } } },
});

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validators = Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, ajv.compile(schema)]));

/** Fails with every violation when `value` is not a complete `model` in the clients' terms. */
export function expectWire(model: keyof typeof schemas, value: unknown): void {
  const validate = validators[model];
  if (!validate(value)) {
    throw new Error(
      `${model} does not match what the clients require:\n${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(value).slice(0, 2000)}`,
    );
  }
}

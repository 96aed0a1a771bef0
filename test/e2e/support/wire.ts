import Ajv, { SchemaObject } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The required fields of COMPATIBILITY.md as JSON Schemas, with exact JSON types (the
 * Python SDK rejects "true" for a bool and 1.5 for an int). Responses are checked here,
 * independently of the server's own OpenAPI document.
 */
const ts = {
  type: 'object',
  required: ['value', 'readable'],
  properties: { value: { type: 'string', format: 'date-time', pattern: 'Z$' }, readable: { type: 'string', minLength: 1 } },
};
const uuid = { type: 'string', format: 'uuid' };
const iterable = (items: SchemaObject) => ({ type: 'object', required: ['iterable'], properties: { iterable: { type: 'array', items } } });
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
  },
};
const score = { type: 'object', required: ['manual', 'automatic'], properties: { manual: { type: 'integer' }, automatic: { type: 'integer' } } };
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
  classification: { type: 'object', required: ['generic', 'specific'], properties: { generic, specific: { type: 'string' } } },
  role: enumOf('UNKNOWN', 'ORIGINAL', 'ADDITIONAL', 'BOTH', 'PREVIEW'),
  application,
  bytes: { type: 'object', required: ['value', 'readable'], properties: { value: { type: 'integer' }, readable: { type: 'string' } } },
  created: ts,
  updated: ts,
  fragment: { type: 'object', required: ['string'], properties: { string: { type: 'object', required: ['raw'], properties: { raw: { type: 'string' } } } } },
};
const formatRequired = ['id', 'creator', 'classification', 'role', 'application', 'asset', 'bytes', 'created', 'updated'];
const format = { type: 'object', required: formatRequired, properties: { ...formatCommon, asset: flattenedAsset } };
const flattenedFormat = { type: 'object', required: formatRequired, properties: { ...formatCommon, asset: uuid } };
const referencedFormat = { type: 'object', required: ['id'], properties: { id: uuid, reference: flattenedFormat } };
const tag = {
  type: 'object',
  required: ['id', 'text', 'created', 'updated', 'category'],
  properties: { id: uuid, text: { type: 'string' }, created: ts, updated: ts, category: enumOf('UNKNOWN', 'HANDLE', 'EMAIL') },
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
    properties: { iterable: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: uuid } } }, indices: { type: 'object' } },
  },
  Applications: iterable(application),
  User: {
    type: 'object',
    required: ['user'],
    properties: {
      user: {
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
      },
    },
  },
};

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validators = Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, ajv.compile(schema)]));

/** Fails with every violation when `value` is not a complete `model` in COMPATIBILITY.md's terms. */
export function expectWire(model: keyof typeof schemas, value: unknown): void {
  const validate = validators[model];
  if (!validate(value)) {
    throw new Error(`${model} does not match COMPATIBILITY.md:\n${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(value).slice(0, 2000)}`);
  }
}

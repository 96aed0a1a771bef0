import Ajv, { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { nodeRequest } from './support/http';
import { TestServer, startTestServer, testDatabaseUrl } from './support/server';

/**
 * Property-based fuzzing of every operation the server documents (every operation of the core interface
 * it serves): hostile path ids, query flags, bodies and content types. For every generated
 * request: never a 5xx, a status the operation documents, a body matching the documented
 * schema, and for every rejected request the database (outbox included) is unchanged.
 */
// On PostgreSQL each request also costs a fingerprint of every table over the network (12 min for
// 200 runs on two busy cores): the validation is the same code, so fewer runs there find what the
// database would answer differently (NUL bytes, lengths, collations) without doubling CI.
const RUNS = Number(process.env.FUZZ_RUNS ?? (testDatabaseUrl ? 60 : 200));

interface Operation {
  id: string;
  method: string;
  path: string;
  params: string[];
  queries: string[];
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

const WEIRD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\u202e',
  '💥',
  '../../etc/passwd',
  '..\\..\\win.ini',
  '%00',
  '%2e%2e%2f',
  '<script>alert(1)</script>',
  "'; DROP TABLE assets; --",
  '{{7*7}}',
  '${7*7}',
  'a'.repeat(5000),
  '__proto__',
  'constructor',
];
const MALFORMED_BODIES = [
  '{',
  '{"a":',
  '[1,2',
  'nul',
  'tru',
  '{"a":1}}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":-Infinity}',
  '{"n":1e999999}',
  '{"n":-1e999999}',
  '{"n":123456789012345678901234567890}',
  '{"__proto__":{"polluted":1}}',
  '{"a":{"__proto__":{"polluted":1}}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '"\\ud800"',
  '{"s":"\\ud800"}',
  '{"s":"\\u0000"}',
  '\u0000',
  '\ufeff{}',
  '{"a":1,"a":2}',
  `${'['.repeat(500)}${']'.repeat(500)}`,
  `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`,
  '[]',
  '0',
  '-0',
  '"text"',
  'null',
  'true',
  '{}',
];
const PATH_TRICKS = [
  '..',
  '.',
  '%2e%2e',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  'null',
  'undefined',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'FFFFFFFF-FFFF-4FFF-8FFF-FFFFFFFFFFFF',
  '%F0%9F%92%A5',
  encodeURIComponent('😀'.repeat(10)),
  'a'.repeat(300),
  '{asset}',
  '%7Basset%7D',
  '-1',
  '0',
  '1e9',
  'true',
  encodeURIComponent('\ud800'.replace(/./, '?')),
];

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(), // NaN and ±Infinity serialise as null
    fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -Number.MAX_VALUE, 1e308, 5e-324),
    fc.string({ maxLength: 20 }),
    fc.constantFrom(...WEIRD_STRINGS),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.constantFrom(
          'iterable',
          'asset',
          'id',
          'name',
          'format',
          'fragment',
          'string',
          'raw',
          'type',
          'messages',
          'query',
          'unknownField',
        ),
      ),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

/** A body: malformed text, any JSON (with proto keys spliced in), or a plausible object with an unknown field. */
const body = fc.oneof(
  fc.constant<string | undefined>(undefined),
  fc.constantFrom(...MALFORMED_BODIES),
  json.map((v) => JSON.stringify(v)),
  fc
    .tuple(json, fc.constantFrom('__proto__', 'constructor', 'unknown_field', 'iterable'))
    .map(([v, key]) => `{"${key}":${JSON.stringify(v) ?? 'null'},"x":1}`),
  fc.string({ maxLength: 50 }),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  '',
);
const pathValue = fc.oneof(
  fc.uuid(),
  fc.constantFrom(...PATH_TRICKS),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
);
const queryValue = fc.oneof(
  fc.constantFrom('true', 'false', '', 'yes', '1', 'null', '%00', 'a'.repeat(300)),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
);

describe('fuzzing every operation', () => {
  let server: TestServer;
  let operations: Operation[];
  let ajv: Ajv;
  const validators = new Map<object, ValidateFunction>();

  /** Changes the database has seen: SQLite's total_changes() on its one connection, or a digest of every table on PostgreSQL. */
  let fingerprint: () => Promise<string>;

  beforeAll(async () => {
    server = await startTestServer({ TROVE_RATE_LIMIT: '0', TROVE_RATE_LIMIT_QGPT: '0' });
    const document = JSON.parse((await nodeRequest(`${server.baseUrl}/docs-json`, 'GET')).text);
    operations = [];
    for (const [path, methods] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        // Every accepted call restarts the server, leaving the next request nothing to talk to: restart.spec.ts covers it.
        if (op.operationId === 'osRestart') continue;
        // Every accepted call stops the server for good: terminate.spec.ts covers it (with a real process).
        if (op.operationId === 'osTerminate') continue;
        const parameters: Array<{ in: string; name: string }> = op.parameters ?? [];
        operations.push({
          id: op.operationId,
          method: method.toUpperCase(),
          path,
          params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
          queries: parameters.filter((p) => p.in === 'query').map((p) => p.name),
          responses: op.responses,
        });
      }
    }
    ajv = new Ajv({ strict: false, validateFormats: false, allErrors: false });
    ajv.addSchema({ $id: 'openapi', components: document.components });
    if (testDatabaseUrl) {
      const tables = (
        await server.sql<{ table_name: string }>(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
        )
      ).map((t) => t.table_name);
      const digest = tables
        .map((t) => `(SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) FROM "${t}" x)`)
        .join(` || ',' || `);
      fingerprint = async () => (await server.sql<{ d: string }>(`SELECT ${digest} AS d`))[0].d;
    } else {
      fingerprint = async () => String((await server.sql<{ n: number }>('SELECT total_changes() AS n'))[0].n);
    }
  });
  afterAll(() => server.close());

  function validator(schema: object): ValidateFunction {
    let validate = validators.get(schema);
    if (!validate) {
      const rewritten = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'));
      validate = ajv.compile(rewritten);
      validators.set(schema, validate);
    }
    return validate;
  }

  it('documents a fair number of operations (everything served is fuzzed)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(60);
  });

  it(`every operation, ${RUNS} generated requests each: never a 5xx, documented statuses and schemas, rejected requests change nothing`, async () => {
    const failures: string[] = [];
    for (const op of operations) {
      const request = fc.record({
        params: fc.tuple(...op.params.map(() => pathValue), fc.constant('')),
        query: fc.option(
          fc.tuple(fc.constantFrom(...(op.queries.length ? op.queries : ['unexpected']), 'unknown'), queryValue),
          { nil: undefined },
        ),
        body,
        contentType,
      });
      await fc
        .assert(
          fc.asyncProperty(request, async ({ params, query, body: text, contentType: type }) => {
            let path = op.path;
            op.params.forEach((name, i) => (path = path.replace(`{${name}}`, params[i] || 'x')));
            if (query) path += `?${query[0]}=${query[1]}`;
            const before = await fingerprint();
            const headers: Record<string, string> = {};
            if (text !== undefined && type) headers['content-type'] = type;
            const res = await nodeRequest(`${server.baseUrl}${path}`, op.method, text, headers).catch(
              (error: Error) => ({
                status: 0,
                headers: {} as Record<string, string>,
                text: error.message,
              }),
            );
            const where = `${op.id} ${op.method} ${path} ${type} ${JSON.stringify(text)?.slice(0, 200)} -> ${res.status} ${res.text.slice(0, 200)}`;
            if (res.status === 0 || res.status >= 500) throw new Error(`server error: ${where}`);
            const documented = op.responses[String(res.status)];
            if (!documented) throw new Error(`undocumented status: ${where}`);
            const schema = documented.content?.['application/json']?.schema;
            if (schema && (res.headers['content-type'] ?? '').startsWith('application/json')) {
              const validate = validator(schema);
              if (!validate(JSON.parse(res.text)))
                throw new Error(`response does not match its schema (${ajv.errorsText(validate.errors)}): ${where}`);
            }
            if (res.status >= 400) {
              const after = await fingerprint();
              if (after !== before) throw new Error(`a rejected request changed the database: ${where}`);
            } else if (op.method !== 'GET') {
              // An accepted write may go on in the background (activities, classification): let it settle.
              let last = await fingerprint();
              for (;;) {
                await new Promise((r) => setTimeout(r, 150));
                const now = await fingerprint();
                if (now === last) break;
                last = now;
              }
            }
          }),
          { numRuns: RUNS, endOnFailure: true },
        )
        .catch((error: Error) => {
          const lines = error.message.split('\n');
          failures.push(
            `${op.id}: ${lines.find((l) => /^Got (error|.*Error)/.test(l)) ?? ''} ${lines.slice(0, 3).join(' ')}`,
          );
        });
    }
    expect(failures).toEqual([]);
  }, 1_200_000);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { http } from './support/http';
import { useTestServer } from './support/server';

const root = join(__dirname, '..', '..');

/**
 * Every operation of the core interface (the contract): the operation groups Trove serves in full: kept in the
 * repository (fixtures/interface-operations.json) so that a plain clone tests itself.
 */
function interfaceOperations(): { operationId: string; method: string; path: string }[] {
  const all: Array<{ operationId: string; method: string; path: string; websocket?: boolean }> = JSON.parse(
    readFileSync(join(__dirname, 'fixtures', 'interface-operations.json'), 'utf8'),
  );
  return all.filter((op) => !op.websocket).map((op) => ({ ...op, method: op.method.toLowerCase() }));
}

/** Operations of the core interface that later issues deliver; this list only ever shrinks. */
const NOT_YET: string[] = [];

describe('OpenAPI document and Swagger UI', () => {
  const server = useTestServer();
  let served: any;
  beforeAll(async () => {
    served = (await http(server.baseUrl, 'GET', '/docs-json')).json;
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await http(server.baseUrl, 'GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/swagger-ui/i);
  });

  it('matches the committed openapi.json (run `npm run openapi:export` after an API change)', () => {
    const committed = JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8'));
    expect(served).toEqual(committed);
  });

  it('gives every operation of the core interface its operationId, on its method and path', () => {
    expect(interfaceOperations().length).toBeGreaterThan(60);
    const missing: string[] = [];
    for (const op of interfaceOperations()) {
      const path = op.path.replace(/\{(\w+)\}/g, '{$1}');
      const found = served.paths[path]?.[op.method];
      if (!found) missing.push(op.operationId);
      else expect({ op: op.operationId, id: found.operationId }).toEqual({ op: op.operationId, id: op.operationId });
    }
    expect(missing.sort()).toEqual([...NOT_YET].sort());
  });

  it('has unique operationIds and non-empty request and response schemas', () => {
    const ids: string[] = [];
    for (const [path, methods] of Object.entries<Record<string, any>>(served.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        expect({ path, method, operationId: typeof op.operationId }).toEqual({ path, method, operationId: 'string' });
        ids.push(op.operationId);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    const schemas = served.components.schemas;
    for (const name of [
      'SeedDto',
      'SeededAssetDto',
      'AssetDto',
      'AssetWire',
      'FormatWire',
      'AssetsWire',
      'FlattenedAssetsWire',
    ]) {
      expect({ name, properties: Object.keys(schemas[name]?.properties ?? {}).length > 0 }).toEqual({
        name,
        properties: true,
      });
    }
    expect(Object.keys(schemas.AssetWire.properties)).toEqual(
      expect.arrayContaining(['id', 'creator', 'created', 'updated', 'formats', 'preview', 'original', 'mechanism']),
    );
    const create = served.paths['/assets/create'].post;
    expect(create.requestBody.content['application/json'].schema.$ref).toMatch(/SeedDto/);
    expect(create.responses['200'].content['application/json'].schema.$ref).toMatch(/AssetWire/);
  });
});

import { Configuration, ResponseError, WorkstreamPatternEngineApi } from '@pieces.app/pieces-os-client';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectError, http, nodeRequest } from './support/http';
import { startTestServer, useTestServer } from './support/server';
import { upgradeAnswer } from './support/ws';

/**
 * What answers a request no route of Trove's takes: an operation of the official SDK that Trove
 * does not serve is a JSON 501 that names it and says why (HTTP and WebSocket), a path Trove
 * serves under other methods a 405 with Allow, anything else the JSON 404; the access checks
 * and the rate limits come first, and none of this hides a route Trove serves or shows in its
 * OpenAPI document. (sdk-operations.spec.ts walks every operation of the SDK.)
 */
describe('operations Trove does not serve', () => {
  const server = useTestServer();

  it('answers an SDK operation Trove does not serve with a JSON 501 naming it and saying why (GET, POST, HEAD)', async () => {
    const vision = await http(server.baseUrl, 'POST', '/workstream_pattern_engine/processors/vision/activate', {
      vision: true,
    });
    expectError(vision, 501);
    expect(vision.json).toEqual({
      statusCode: 501,
      error: 'Not Implemented',
      message: expect.stringMatching(
        /^workstreamPatternEngineProcessorsVisionActivate \(POST \/workstream_pattern_engine\/processors\/vision\/activate, WorkstreamPatternEngineApi in the Pieces SDK\) is not offered by Trove: it belongs to Pieces' screen-capture long-term memory/,
      ),
    });
    expectError(await http(server.baseUrl, 'GET', '/backups'), 501, /backupsSnapshot .*`trove backup`/);
    expectError(
      await http(server.baseUrl, 'POST', '/allocations/create', {}),
      501,
      /allocationsCreateNewAllocation .*Pieces cloud/,
    );
    const head = await nodeRequest(`${server.baseUrl}/backups`, 'HEAD');
    expect(head.status).toBe(501);
    expect(head.text).toBe('');
  });

  it('names the operation a path with ids stands for, and an association route says which links Trove keeps', async () => {
    const res = await http(
      server.baseUrl,
      'POST',
      '/tag/0a0b0c0d-0000-4000-8000-00000000dead/persons/associate/0a0b0c0d-0000-4000-8000-00000000beef',
    );
    expectError(
      res,
      501,
      /tagAssociatePerson \(POST \/tag\/\{tag\}\/persons\/associate\/\{person\}.*no link between tags and persons/,
    );
  });

  it('is what the SDK gets: a ResponseError whose response is the 501', async () => {
    const wpe = new WorkstreamPatternEngineApi(new Configuration({ basePath: server.baseUrl }));
    const error = await wpe.workstreamPatternEngineProcessorsVisionCalibrationsSnapshot().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    const response = (error as ResponseError).response;
    expect(response.status).toBe(501);
    expect((await response.json()).message).toMatch(/^workstreamPatternEngineProcessorsVisionCalibrationsSnapshot /);
  });

  it('reads no body first: a 501 also for a body that is not JSON at all', async () => {
    const res = await nodeRequest(`${server.baseUrl}/linkify`, 'POST', '{not json', {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(501);
    expect(JSON.parse(res.text).message).toMatch(/^linkify /);
  });

  it('keeps the JSON 404 for a path that is no SDK operation, and answers a served path under another method with a 405 and Allow', async () => {
    expectError(
      await http(server.baseUrl, 'GET', '/tags/everything'),
      404,
      /^"Cannot GET \/tags\/everything: no such route"$/,
    );
    expectError(await http(server.baseUrl, 'DELETE', '/no/such/route'), 404, /Cannot DELETE/);
    const post = await http(server.baseUrl, 'POST', '/assets');
    expectError(post, 405, /POST is not a method of \/assets: it answers GET, HEAD/);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    // A method the SDK never uses on an SDK path: not an SDK operation, so the path's own methods.
    const put = await http(server.baseUrl, 'PUT', '/conversations/create', {});
    expectError(put, 405);
    expect(put.headers.get('allow')).toBe('POST');
  });

  it('hides no route Trove serves: every operation of its OpenAPI document answers, none with a 501 or a route-not-found 404', async () => {
    const document = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const id = '0a0b0c0d-0000-4000-8000-00000000dead';
    const checked: string[] = [];
    for (const [template, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        if (
          template === '/os/restart' ||
          template === '/os/terminate' ||
          template.endsWith('/sse') ||
          template === '/trove/export'
        )
          continue; // restart or stop the server; streams
        const path = template.replace(/\{[^}]+\}/g, id);
        const res = await http(server.baseUrl, method.toUpperCase(), path, method === 'post' ? {} : undefined);
        checked.push(`${method.toUpperCase()} ${template} ${res.status}`);
        expect({ route: `${method} ${template}`, status: res.status === 501 ? 501 : 'not 501' }).toEqual({
          route: `${method} ${template}`,
          status: 'not 501',
        });
        if (res.status === 404)
          expect({ route: `${method} ${template}`, message: res.json?.message }).not.toMatchObject({
            message: expect.stringMatching(/^Cannot /),
          });
      }
    }
    expect(checked.length).toBeGreaterThan(100);
  });

  it('answers the WebSocket upgrade of an SDK stream Trove does not serve with the JSON 501, instead of dropping the socket', async () => {
    const answer = await upgradeAnswer(`${server.baseUrl}/foundry/status/stream`);
    expect(answer).toMatchObject({
      status: 501,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      json: {
        statusCode: 501,
        error: 'Not Implemented',
        message: expect.stringMatching(/^foundryStatusCheckStream \(GET .* is not offered by Trove: /),
      },
    });
    expect(await upgradeAnswer(`${server.baseUrl}/no/such/stream`)).toMatchObject({
      status: 404,
      json: { message: 'no WebSocket stream at /no/such/stream' },
    });
  });

  it('does not list the operations it does not serve in its OpenAPI document', async () => {
    const served = (await http(server.baseUrl, 'GET', '/docs-json')).json as { paths: Record<string, unknown> };
    expect(Object.keys(served.paths)).not.toContain('/backups');
    expect(Object.keys(served.paths)).not.toContain('/workstream_pattern_engine/processors/vision/activate');
    expect(Object.keys(served.paths).length).toBeLessThan(250);
  });
});

describe('operations Trove does not serve: the checks that come first', () => {
  it('refuses a request without the API key (401) and a foreign Host (403) before answering 501, over HTTP and WebSocket', async () => {
    const server = await startTestServer({ TROVE_API_KEYS: 'unserved-key-1234567890' });
    try {
      expectError(await http(server.baseUrl, 'GET', '/backups'), 401);
      expectError(
        await http(server.baseUrl, 'GET', '/backups', undefined, { authorization: 'Bearer unserved-key-1234567890' }),
        501,
      );
      const bad = await nodeRequest(`${server.baseUrl}/backups`, 'GET', undefined, {
        host: 'evil.example',
        authorization: 'Bearer unserved-key-1234567890',
      });
      expect(bad.status).toBe(403);
      expect(await upgradeAnswer(`${server.baseUrl}/backups/streamed/progress`)).toMatchObject({ status: 401 });
      expect(
        await upgradeAnswer(`${server.baseUrl}/backups/streamed/progress`, {
          authorization: 'Bearer unserved-key-1234567890',
          origin: 'https://evil.example',
        }),
      ).toMatchObject({ status: 403, json: { statusCode: 403 } });
      expect(
        await upgradeAnswer(`${server.baseUrl}/backups/streamed/progress`, {
          authorization: 'Bearer unserved-key-1234567890',
        }),
      ).toMatchObject({
        status: 501,
      });
    } finally {
      await server.close();
    }
  });

  it('counts a request for an unserved operation against the rate limit (429 once it is reached)', async () => {
    const server = await startTestServer({ TROVE_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await http(server.baseUrl, 'GET', '/backups')).status);
      expect(statuses).toEqual([501, 501, 501, 429]);
    } finally {
      await server.close();
    }
  });
});

import { AssetApi, AssetsApi, ConnectorApi, Context, SeededConnectorCreation } from '@pieces.app/pieces-os-client';
import { expectError, http, statusOf } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN = '0a0b0c0d-0000-4000-8000-00000000dead';
/** Written synchronously by the requests under test (activities are recorded in batches, later). */
const TABLES = ['applications', 'assets', 'formats', 'connector_intentions', 'connector_events', 'settings'];

const connection = (name = 'VS_CODE', version = '1.90.0', platform = 'LINUX') => ({
  application: { name, version, platform },
});
const creation = (raw: string) => ({ asset: { format: { fragment: { string: { raw } } } } });

const SNIPPET = [
  'export function debounce(fn, wait) {',
  '  let timer = null;',
  '  return (...args) => {',
  '    clearTimeout(timer);',
  '    timer = setTimeout(() => fn(...args), wait);',
  '  };',
  '}',
].join('\n');
/** The same code re-indented, with extra blank lines, tabs, CRLF and trailing spaces. */
const SNIPPET_REFORMATTED = [
  '        export   function debounce(fn, wait) {   ',
  '',
  '\t\tlet timer = null;',
  '\t\treturn (...args) => {',
  '            clearTimeout(timer);',
  '            timer =   setTimeout(() => fn(...args), wait);',
  '\t\t};',
  '        }',
].join('\r\n');
/** Close to SNIPPET: one line changed. */
const SNIPPET_EDITED = SNIPPET.replace(
  'timer = setTimeout(() => fn(...args), wait);',
  'timer = setTimeout(() => fn.apply(this, args), wait);',
);
const OTHER = 'SELECT name, email FROM customers WHERE created_at > NOW() - INTERVAL 7 DAY ORDER BY name;';

describe('connector', () => {
  let server: TestServer;
  let connector: ConnectorApi;
  let context: Context;
  let appId: string;
  /** An Application of an allowed integration that exists (seen in a seed) but never connected. */
  let unconnectedId: string;

  beforeAll(async () => {
    server = await startTestServer();
    connector = new ConnectorApi(server.sdk);
    context = await connector.connect({ seededConnectorConnection: connection() as never });
    appId = context.application.id;
    const seeded = textSeed('print("hello")');
    (seeded.asset!.application as { id?: string }).id = undefined;
    seeded.asset!.application.name = 'JETBRAINS' as never;
    seeded.asset!.application.version = '2024.1';
    await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: seeded });
    const rows = await server.sql<{ id: string }>(`SELECT id FROM applications WHERE name = 'JETBRAINS'`);
    unconnectedId = rows[0].id;
  });
  afterAll(() => server.close());

  describe('connect', () => {
    it('answers a complete Context for a known integration and lists it in /applications', async () => {
      const res = await http(server.baseUrl, 'POST', '/connect', connection('SUBLIME', '4.0', 'MACOS'));
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        os: expect.stringMatching(UUID_RE),
        application: {
          id: expect.stringMatching(UUID_RE),
          name: 'SUBLIME',
          version: '4.0',
          platform: 'MACOS',
          onboarded: false,
          privacy: 'OPEN',
          capabilities: 'LOCAL',
        },
        health: { os: { id: res.json.os, version: expect.stringMatching(/^12\.\d+\.\d+$/) } },
        user: expect.objectContaining({ id: expect.stringMatching(UUID_RE) }),
      });
      expectWire('Application', res.json.application);
      const user = await http(server.baseUrl, 'GET', '/user');
      expect(res.json.user.id).toBe(user.json.user.id);
      expect(res.json.os).toBe(context.os);
      const apps = await http(server.baseUrl, 'GET', '/applications');
      expect(apps.json.iterable.map((a: { id: string }) => a.id)).toEqual(
        expect.arrayContaining([res.json.application.id, appId]),
      );
      expect(apps.json.iterable.map((a: { id: string }) => a.id)).not.toContain(unconnectedId);
    });

    it('reuses the Application for the same name + platform + version, and records a new one otherwise', async () => {
      const before = await server.counts(['applications']);
      const again = await connector.connect({ seededConnectorConnection: connection() as never });
      expect(again.application.id).toBe(appId);
      expect(await server.counts(['applications'])).toBe(before);
      const newer = await connector.connect({ seededConnectorConnection: connection('VS_CODE', '1.91.0') as never });
      expect(newer.application.id).not.toBe(appId);
    });

    it('connecting an application first seen in a seed reuses that Application', async () => {
      const seeded = textSeed('echo "seen first in a seed"');
      Object.assign(seeded.asset!.application, { id: undefined, name: 'VIM', version: '9.1', platform: 'LINUX' });
      await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: seeded });
      const [row] = await server.sql<{ id: string }>(
        `SELECT id FROM applications WHERE name = 'VIM' AND version = '9.1'`,
      );
      const res = await http(server.baseUrl, 'POST', '/connect', connection('VIM', '9.1', 'LINUX'));
      expect(res.status).toBe(200);
      expect(res.json.application.id).toBe(row.id);
      const apps = await http(server.baseUrl, 'GET', '/applications');
      expect(apps.json.iterable.map((a: { id: string }) => a.id)).toContain(row.id);
    });

    it('answers 400 for an unknown, missing or malformed application and writes nothing', async () => {
      const before = await server.counts(TABLES);
      expectError(
        await http(server.baseUrl, 'POST', '/connect', connection('NOT_AN_EDITOR')),
        400,
        /application\.name/,
      );
      expectError(await http(server.baseUrl, 'POST', '/connect'), 400);
      expectError(await http(server.baseUrl, 'POST', '/connect', {}), 400, /application/);
      expectError(
        await http(server.baseUrl, 'POST', '/connect', {
          application: { name: 'VS_CODE', version: 1, platform: 'LINUX' },
        }),
        400,
        /version/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/connect', {
          application: { name: 'VS_CODE', version: '1', platform: 'AMIGA' },
        }),
        400,
        /platform/,
      );
      expectError(await http(server.baseUrl, 'POST', '/connect', { ...connection(), extra: 1 }), 400, /extra/);
      expect(await statusOf(connector.connect({}))).toBe(400);
      expect(await server.counts(TABLES)).toBe(before);
    });
  });

  describe('authentication of /{application}/... (400 vs 401 vs 200 per operation)', () => {
    const bodies: Record<string, unknown> = {
      intention: creation(OTHER).asset,
      onboarded: true,
      reaction: { save: false, seed: {} },
      suggestion: creation(OTHER),
      track: {},
    };

    for (const [operation, body] of Object.entries(bodies)) {
      it(`${operation}: 400 for a non-UUID or unregistered id, 401 for a never-connected one, 200 once connected`, async () => {
        const before = await server.counts(TABLES);
        expectError(await http(server.baseUrl, 'POST', `/not-a-uuid/${operation}`, body), 400, /application/);
        expectError(
          await http(server.baseUrl, 'POST', `/${UNKNOWN}/${operation}`, body),
          400,
          /registered integration/,
        );
        expectError(await http(server.baseUrl, 'POST', `/${unconnectedId}/${operation}`, body), 401, /connect/);
        // Authentication is checked before the body: a bad body on an unconnected application is still a 401.
        expectError(await http(server.baseUrl, 'POST', `/${unconnectedId}/${operation}`, { bogus: 1 }), 401);
        expect(await server.counts(TABLES)).toBe(before);
        const ok = await http(server.baseUrl, 'POST', `/${appId}/${operation}`, body);
        expect(ok.status).toBe(200);
        if (operation === 'suggestion') {
          expect(ok.headers.get('content-type')).toMatch(/^application\/json/);
        } else {
          expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
        }
      });
    }

    it('SDK calls see the same statuses', async () => {
      expect(await statusOf(connector.track({ application: UNKNOWN, seededConnectorTracking: {} }))).toBe(400);
      expect(await statusOf(connector.track({ application: unconnectedId, seededConnectorTracking: {} }))).toBe(401);
      expect(await connector.track({ application: appId, seededConnectorTracking: {} })).toBe('OK');
    });

    it('an application removed from TROVE_ALLOWED_APPLICATIONS answers 400', async () => {
      const restricted = await startTestServer({ TROVE_ALLOWED_APPLICATIONS: 'JETBRAINS' });
      try {
        expectError(
          await http(restricted.baseUrl, 'POST', '/connect', connection('VS_CODE')),
          400,
          /registered integration/,
        );
        const jet = await http(restricted.baseUrl, 'POST', '/connect', connection('JETBRAINS', '2024.1'));
        expect(jet.status).toBe(200);
        expect(
          await statusOf(
            new ConnectorApi(restricted.sdk).onboarded({ application: jet.json.application.id, body: true }),
          ),
        ).toBe(200);
      } finally {
        await restricted.close();
      }
    });
  });

  describe('copy -> suggest -> react -> asset', () => {
    it('suggests saving a new snippet, saves it on reaction, then suggests reusing it despite reformatting', async () => {
      const seed = creation(SNIPPET) as SeededConnectorCreation;
      const first = await connector.suggest({ application: appId, seededConnectorCreation: seed });
      expect(first.reuse.suggested).toBe(false);
      expect(first.save.suggested).toBe(true);
      expect(Number.isInteger(first.target.vector)).toBe(true);
      expect(first.target.seed.asset?.format?.fragment?.string?.raw).toBe(SNIPPET);

      const assetId = await connector.react({ application: appId, reaction: { save: true, seed } });
      expect(assetId).toMatch(UUID_RE);
      const saved = await new AssetApi(server.sdk).assetSnapshot({ asset: assetId });
      expect(saved.original.reference?.fragment?.string?.raw).toBe(SNIPPET);
      expect(saved.original.reference?.application?.id).toBe(appId);

      const raw = await http(server.baseUrl, 'POST', `/${appId}/suggestion`, creation(SNIPPET_REFORMATTED));
      expect(raw.status).toBe(200);
      expect(raw.json.reuse.suggested).toBe(true);
      expect(raw.json.save.suggested).toBe(false);
      expect(raw.json.reuse.assets.iterable[0].id).toBe(assetId);
      expect(raw.json.assets.iterable[0].id).toBe(assetId);
      expect(raw.json.target.vector).toBe(100);
      expectWire('Assets', raw.json.reuse.assets);
      expectWire('Assets', raw.json.assets);

      // A near duplicate (one line changed) is still offered for reuse, below an exact one.
      const near = await connector.suggest({
        application: appId,
        seededConnectorCreation: creation(SNIPPET_EDITED) as SeededConnectorCreation,
      });
      expect(near.reuse.suggested).toBe(true);
      expect(near.reuse.assets.iterable[0].id).toBe(assetId);
      expect(near.target.vector).toBeGreaterThanOrEqual(80);
      expect(near.target.vector).toBeLessThan(100);

      // Reusing counts a reuse on the asset and answers OK.
      expect(
        await connector.react({ application: appId, reaction: { save: false, reuse: { asset: assetId }, seed } }),
      ).toBe('OK');
      const scored = await server.sql<{ score_reuse: number }>(
        `SELECT score_reuse FROM assets WHERE id = '${assetId}'`,
      );
      expect(Number(scored[0].score_reuse)).toBe(1);
      const events = await server.sql<{ kind: string }>(
        `SELECT kind FROM connector_events WHERE asset_id = '${assetId}' ORDER BY created_at`,
      );
      expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(['saved', 'reused']));
    });

    it('neither reuse nor save for unrelated short text', async () => {
      const s = await connector.suggest({
        application: appId,
        seededConnectorCreation: creation('hello world') as SeededConnectorCreation,
      });
      expect(s.reuse.suggested).toBe(false);
      expect(s.save.suggested).toBe(false);
      expect(s.reuse.assets.iterable).toEqual([]);
    });

    it('a dismissal (save false, no reuse) answers OK and creates nothing', async () => {
      const before = await server.counts(['assets']);
      expect(
        await connector.react({
          application: appId,
          reaction: { save: false, seed: creation(OTHER) as SeededConnectorCreation },
        }),
      ).toBe('OK');
      expect(await server.counts(['assets'])).toBe(before);
    });

    it('reusing an unknown asset is a 404 and records nothing', async () => {
      const before = await server.counts(TABLES);
      const res = await http(server.baseUrl, 'POST', `/${appId}/reaction`, {
        save: false,
        reuse: { asset: UNKNOWN },
        seed: {},
      });
      expect(res.status).toBe(404);
      expect(await server.counts(TABLES)).toBe(before);
    });
  });

  describe('intention, onboarded, track', () => {
    it('intention stores the snippet and answers its id as text', async () => {
      const id = await connector.intention({
        application: appId,
        seededConnectorAsset: creation(SNIPPET).asset as never,
      });
      expect(id).toMatch(UUID_RE);
      const rows = await server.sql<{ raw: string; application_id: string }>(
        `SELECT raw, application_id FROM connector_intentions WHERE id = '${id}'`,
      );
      expect(rows).toEqual([{ raw: SNIPPET, application_id: appId }]);
    });

    it('onboarded stores the flag on the Application', async () => {
      expect(await connector.onboarded({ application: appId, body: true })).toBe('OK');
      let apps = await http(server.baseUrl, 'GET', '/applications');
      expect(apps.json.iterable.find((a: { id: string }) => a.id === appId).onboarded).toBe(true);
      const res = await http(server.baseUrl, 'POST', `/${appId}/onboarded`, 'false');
      expect(res.status).toBe(200);
      expect(res.text).toBe('OK');
      apps = await http(server.baseUrl, 'GET', '/applications');
      expect(apps.json.iterable.find((a: { id: string }) => a.id === appId).onboarded).toBe(false);
      const again = await connector.connect({ seededConnectorConnection: connection() as never });
      expect(again.application.onboarded).toBe(false);
    });

    it('track records one event per kind, naming the asset when given', async () => {
      const before = Number((await server.sql<{ n: number }>(`SELECT COUNT(*) AS n FROM connector_events`))[0].n);
      const body = {
        asset: { asset: { id: UNKNOWN }, identifier_description_pair: { asset_referenced: 'an asset was referenced' } },
        interaction: { description: 'clicked save' },
      };
      const res = await http(server.baseUrl, 'POST', `/${appId}/track`, body);
      expect(res.status).toBe(200);
      expect(res.text).toBe('OK');
      const rows = await server.sql<{ kind: string; asset_id: string | null }>(
        `SELECT kind, asset_id FROM connector_events ORDER BY kind`,
      );
      expect(rows.length).toBe(before + 2);
      expect(rows).toEqual(
        expect.arrayContaining([
          { kind: 'asset', asset_id: UNKNOWN },
          { kind: 'interaction', asset_id: null },
        ]),
      );
    });
    it("an event naming a saved asset shows in that asset's activities, credited to the application", async () => {
      const saved = await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: textSeed('const tracked = true;') });
      const pair = { asset_referenced: 'an_asset_was_referenced_by_the_user' };
      const res = await http(server.baseUrl, 'POST', `/${appId}/track`, {
        asset: { asset: { id: saved.id }, identifier_description_pair: pair },
      });
      expect(res.status).toBe(200);
      const deadline = Date.now() + 3000;
      let tracked:
        | {
            application: { id: string };
            event: { asset: { asset: { id: string }; identifier_description_pair: unknown } };
          }
        | undefined;
      while (!tracked && Date.now() < deadline) {
        const list = await http(server.baseUrl, 'GET', `/asset/${saved.id}/activities`);
        expect(list.status).toBe(200);
        tracked = list.json.iterable.find((a: { application: { id: string } }) => a.application.id === appId);
        if (!tracked) await new Promise((r) => setTimeout(r, 25));
      }
      expect(tracked?.event.asset.asset.id).toBe(saved.id);
      expect(tracked?.event.asset.identifier_description_pair).toEqual(pair);
    });
  });

  describe('bad input is a 400 and writes nothing', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['intention', undefined, /format/],
      ['intention', { format: { fragment: { string: { raw: 5 } } } }, /raw/],
      ['intention', { format: { fragment: { string: { raw: 'x' } } }, surprise: true }, /surprise/],
      ['suggestion', undefined, /asset/],
      ['suggestion', {}, /asset/],
      ['suggestion', { asset: { format: { fragment: { string: { raw: 'x' } } } }, extra: [] }, /extra/],
      ['suggestion', { asset: 'text' }, /asset/],
      ['reaction', undefined, /save|seed|Reaction/],
      ['reaction', { save: 'yes', seed: {} }, /save/],
      ['reaction', { save: false }, /seed/],
      ['reaction', { save: true, seed: {} }, /seed\.asset/],
      ['reaction', { save: false, reuse: { asset: 'nope' }, seed: {} }, /asset must be a UUID/],
      ['onboarded', 'yes', /boolean/],
      ['onboarded', { onboarded: true }, /boolean/],
      ['track', { interaction: 'clicked' }, /interaction/],
      ['track', { unknown_kind: {} }, /unknown_kind/],
    ];
    for (const [operation, body, message] of cases) {
      it(`${operation} ${JSON.stringify(body)}`, async () => {
        const before = await server.counts(TABLES);
        const res = await http(
          server.baseUrl,
          'POST',
          `/${appId}/${operation}`,
          typeof body === 'string' ? JSON.stringify(body) : body,
        );
        expectError(res, 400, message);
        expect(await server.counts(TABLES)).toBe(before);
      });
    }

    it('malformed JSON is a 400', async () => {
      expectError(await http(server.baseUrl, 'POST', `/${appId}/suggestion`, '{"asset":'), 400);
    });
  });
});

import {
  ApplicationApi,
  ApplicationsApi,
  CapabilitiesEnum,
  ConnectorApi,
  OSApi,
  StreamedIdentifiersFromJSON,
  UpdatingStatusEnum,
} from '@pieces.app/pieces-os-client';
import { expectError, http, statusOf } from './support/http';
import { useTestServer } from './support/server';
import { expectWire } from './support/wire';
import { StreamClient } from './support/ws';

/** POST /connect as Obsidian 2.0.1 and Raycast send it (SeededConnectorConnection). */
const connectAs = (baseUrl: string, name: string, version: string) =>
  http(baseUrl, 'POST', '/connect', { application: { name, version, platform: 'LINUX' } });

describe('applications: one application, its settings, and the stream Obsidian syncs its settings from', () => {
  const server = useTestServer();
  let clients: StreamClient[] = [];
  const open = async (path: string) => {
    const client = await StreamClient.open(server.baseUrl, path);
    clients.push(client);
    return client;
  };
  afterEach(() => {
    clients.forEach((c) => c.close());
    clients = [];
  });

  it('the first frame is sent at once even when no application connected yet: {"iterable": []}', async () => {
    const stream = await open('/applications/stream/identifiers');
    expect(await stream.next()).toEqual({ iterable: [] });
  });

  it('GET /applications/{id}: the application as /connect answered it, with capabilities (LOCAL by default); 404 unknown, 400 not a UUID', async () => {
    const context = (await connectAs(server.baseUrl, 'OBSIDIAN', '2.0.1')).json;
    expect(context.application.capabilities).toBe('LOCAL');
    const app = await new ApplicationsApi(server.sdk).applicationsSpecificApplicationSnapshot({
      application: context.application.id,
    });
    expect(app).toEqual({ ...context.application });
    const raw = await http(server.baseUrl, 'GET', `/applications/${context.application.id}`);
    expectWire('Application', raw.json);
    expect(raw.json).toEqual(context.application);
    expectError(
      await http(server.baseUrl, 'GET', '/applications/7b0c5e55-0000-4000-8000-000000000001'),
      404,
      /not found/,
    );
    expectError(await http(server.baseUrl, 'GET', '/applications/not-a-uuid'), 400, /UUID/);
  });

  it("POST /application/update as Obsidian's settings sends it ({...application, capabilities}): stored, answered and read back", async () => {
    const context = (await connectAs(server.baseUrl, 'OBSIDIAN', '2.0.1')).json;
    const api = new ApplicationApi(server.sdk);
    const updated = await api.applicationUpdate({
      application: { ...context.application, capabilities: CapabilitiesEnum.Blended },
    });
    expect(updated).toEqual({ ...context.application, capabilities: 'BLENDED' });
    const read = await new ApplicationsApi(server.sdk).applicationsSpecificApplicationSnapshot({
      application: context.application.id,
    });
    expect(read.capabilities).toBe('BLENDED');
    // Listed so too, and a later connect of the same application keeps it.
    expect(
      (await http(server.baseUrl, 'GET', '/applications')).json.iterable.find(
        (a: { id: string }) => a.id === context.application.id,
      ).capabilities,
    ).toBe('BLENDED');
    expect((await connectAs(server.baseUrl, 'OBSIDIAN', '2.0.1')).json.application.capabilities).toBe('BLENDED');
    // Raycast's health check: capabilities compared with its preference, updated when they differ.
    const raycast = (
      await new ConnectorApi(server.sdk).connect({
        seededConnectorConnection: { application: { name: 'RAYCAST', version: '1.1.0', platform: 'MACOS' } },
      })
    ).application;
    if (raycast.capabilities?.toLowerCase() !== 'local') throw new Error('a fresh application is LOCAL');
    const local = await api.applicationUpdate({ application: { ...raycast, capabilities: CapabilitiesEnum.Local } });
    expect(local.capabilities).toBe('LOCAL');
  });

  it('refuses what would change an identity or is not an Application (400), and an unknown id (404); nothing changes', async () => {
    const { application } = (await connectAs(server.baseUrl, 'SUBLIME', '1.9.6')).json;
    const before = await server.counts(['applications', 'stream_events']);
    expectError(
      await http(server.baseUrl, 'POST', '/application/update', { ...application, version: '9.9.9' }),
      400,
      /version cannot change/,
    );
    expectError(
      await http(server.baseUrl, 'POST', '/application/update', { ...application, capabilities: 'SOMETIMES' }),
      400,
      /capabilities must be one of/,
    );
    expectError(
      await http(server.baseUrl, 'POST', '/application/update', { ...application, id: undefined }),
      400,
      /id/,
    );
    expectError(await http(server.baseUrl, 'POST', '/application/update'), 400, /name should not be null/);
    expectError(
      await http(server.baseUrl, 'POST', '/application/update', {
        ...application,
        id: '7b0c5e55-0000-4000-8000-000000000002',
      }),
      404,
      /not found/,
    );
    expect(await server.counts(['applications', 'stream_events'])).toBe(before);
    expect((await http(server.baseUrl, 'GET', `/applications/${application.id}`)).json).toEqual(application);
  });

  it('WS /applications/stream/identifiers: every connected application at once, then one frame per connect, update and onboarded', async () => {
    const { application: obsidian } = (await connectAs(server.baseUrl, 'OBSIDIAN', '2.0.1')).json;
    const listed = (await http(server.baseUrl, 'GET', '/applications')).json.iterable.map((a: { id: string }) => a.id);
    const stream = await open('/applications/stream/identifiers');
    const first = StreamedIdentifiersFromJSON(await stream.next());
    // The first frame may be one a socket opened a moment before got (shared for a second), and the
    // changes after it follow at once: together they name every connected application.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const caughtUp = stream.frames.slice(1).map((f) => StreamedIdentifiersFromJSON(f));
    const named = new Set([first, ...caughtUp].flatMap((frame) => frame.iterable.map((i) => i.application?.id)));
    expect([...named].sort()).toEqual([...listed].sort());
    expect(listed).toContain(obsidian.id);
    await stream.take(caughtUp.length);

    // Obsidian's ApplicationStream: a frame naming its application makes it read it again.
    await http(server.baseUrl, 'POST', '/application/update', { ...obsidian, capabilities: 'LOCAL' });
    const changed = StreamedIdentifiersFromJSON(await stream.next());
    expect(changed.iterable).toEqual([{ application: { id: obsidian.id } }]);
    expect(
      (await new ApplicationsApi(server.sdk).applicationsSpecificApplicationSnapshot({ application: obsidian.id }))
        .capabilities,
    ).toBe('LOCAL');

    const { application: vim } = (await connectAs(server.baseUrl, 'VIM', '1.5.1')).json;
    expect(await stream.next()).toEqual({ iterable: [{ application: { id: vim.id } }] });
    expect((await http(server.baseUrl, 'POST', `/${vim.id}/onboarded`, true)).text).toBe('OK');
    expect(await stream.next()).toEqual({ iterable: [{ application: { id: vim.id } }] });
    await stream.quiet();
  });
});

describe('what the plugins ask of the desktop service, answered for what Trove is', () => {
  const server = useTestServer();

  it('POST /os/update/check (Obsidian, Raycast): UP_TO_DATE, nothing to download through this route', async () => {
    const status = await new OSApi(server.sdk).osUpdateCheck({ uncheckedOSServerUpdate: {} });
    expect(status.status).toBe(UpdatingStatusEnum.UpToDate);
    expect((await http(server.baseUrl, 'POST', '/os/update/check')).json).toEqual({ status: 'UP_TO_DATE' });
    expectError(await http(server.baseUrl, 'POST', '/os/update/check', { channel: 'beta' }), 400);
  });

  it('POST /os/filesystem/files/pick and /folders/pick: 400 saying a server cannot open a picker on the desktop', async () => {
    const os = new OSApi(server.sdk);
    // As Obsidian's context picker calls them; the SDK throws, so no anchor is created from an answer.
    expect(await statusOf(os.osFilesystemPickFiles({ filePickerInput: {} }))).toBe(400);
    expect(await statusOf(os.osFilesystemPickFolders())).toBe(400);
    const files = await http(server.baseUrl, 'POST', '/os/filesystem/files/pick', { allowMultiple: true });
    expectError(files, 400, /cannot open a file or folder picker on your desktop/);
    expectError(await http(server.baseUrl, 'POST', '/os/filesystem/folders/pick'), 400, /Attach files by path instead/);
    expectError(await http(server.baseUrl, 'POST', '/os/filesystem/files/pick', { allowMultiple: 'yes' }), 400);
  });
});

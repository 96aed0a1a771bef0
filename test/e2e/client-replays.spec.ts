import {
  AssetFromJSON,
  ContextFromJSON,
  ModelDownloadProgressFromJSON,
  ModelsFromJSON,
  QGPTStreamOutputFromJSON,
  SeedFromJSON,
  StreamedIdentifiersFromJSON,
  UserProfileFromJSON,
} from '@pieces.app/pieces-os-client';
import { request as httpRequest } from 'node:http';
import { derivedId } from '../../src/common/wire/derived-id';
import { FakeLlm, startFakeLlm } from './support/fake-llm';
import { RawResponse, http } from './support/http';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';
import { StreamClient } from './support/ws';

/**
 * The startups and main flows of the public clients other than the CLI, replayed request by
 * request in the order their code (and, for the Python wrapper and the Neovim plugin, a real run
 * against Trove: docs/CLIENTS.md) makes them: method, path, query, body as they send them. Routes
 * that belong to the records collections (/tag/{id}, /website/{id}, ...) are replayed only up to
 * them (noted where a flow goes on).
 */

/** HEAD /.well-known/health as the port scans send it (a new connection, 0.1 s to answer). */
function head(baseUrl: string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, path: '/.well-known/health', method: 'HEAD', agent: false, timeout: 100 },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within the 100 ms the clients wait')));
    req.on('error', reject);
    req.end();
  });
}

/** The Python SDK's JSON body of a request (`json.dumps` of the model's to_dict: keys as given). */
const python = (body: unknown) => JSON.stringify(body);

/** A request as the Python SDK sends it (urllib3: `Content-Type: application/json` with a body, and the `application` header once connected). */
async function py(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  application?: string,
): Promise<RawResponse> {
  const headers: Record<string, string> = {
    'user-agent': 'OpenAPI-Generator/1.0.0/python',
    accept: 'application/json',
  };
  if (application) headers.application = application;
  return http(
    baseUrl,
    method,
    path,
    body === undefined ? undefined : python(body),
    body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
  );
}

describe('the Python wrapper (pieces_os_client.wrapper 5.0.0): PiecesClient() startup, as run for real against Trove', () => {
  let server: TestServer;
  const sockets: StreamClient[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await server.close();
  });
  const open = async (path: string) => {
    const socket = await StreamClient.open(server.baseUrl, path);
    sockets.push(socket);
    return socket;
  };

  it('passes the login gate and opens every socket with its first frame, in the order of a real run', async () => {
    // Port scan: HEAD on each port, 0.1 s each; then Copilot() opens its ask stream.
    expect(await head(server.baseUrl)).toBe(200);
    await open('/qgpt/stream');
    // is_pieces_running(): GET with a 0.1 s timeout.
    const started = Date.now();
    expect((await py(server.baseUrl, 'GET', '/.well-known/health')).text).toMatch(/^ok/);
    expect(Date.now() - started).toBeLessThan(100);
    const connected = await py(server.baseUrl, 'POST', '/connect', {
      application: { name: 'OPEN_SOURCE', platform: 'LINUX', version: '5.0.0' },
    });
    expect(connected.status).toBe(200);
    const application = ContextFromJSON(connected.json).application.id;
    // The gate: no WebSocket is opened unless /user has a user.
    const user = (await py(server.baseUrl, 'GET', '/user', undefined, application)).json.user;
    expect(UserProfileFromJSON(user).id).toBeTruthy();

    // BaseWebsocket.start_all(), in the order the wrapper creates them. wait_for_cache() waits for the
    // first frame of the identifier streams (assets, conversations, anchors, ranges).
    const conversations = await open('/conversations/stream/identifiers');
    const assets = await open('/assets/stream/identifiers');
    const auth = await open('/user/stream');
    const health = new StreamClient(
      new (await import('ws')).default(`${server.baseUrl.replace('http', 'ws')}/.well-known/stream/health`),
      true,
    );
    sockets.push(health);
    await health.opened;
    const ltm = await open('/workstream_pattern_engine/processors/vision/status/stream');
    const ranges = await open('/ranges/stream/identifiers');
    const anchors = await open('/anchors/stream/identifiers');
    for (const stream of [conversations, assets, ranges, anchors])
      expect(StreamedIdentifiersFromJSON(await stream.next()).iterable).toEqual([]);
    // AuthWS: UserProfile.from_json of each frame; a frame that is not JSON means "logged out".
    expect(UserProfileFromJSON(await auth.next()).id).toBe(user.id);
    expect(await health.next()).toMatch(/^ok/);
    // LTMVisionWS reads the status over HTTP on each frame.
    await ltm.next();
    expect(
      (await py(server.baseUrl, 'GET', '/workstream_pattern_engine/processors/vision/status', undefined, application))
        .status,
    ).toBe(200);

    // model_name = "GPT-3.5-turbo Chat Model": models that are cloud or downloaded, by name.
    const models = ModelsFromJSON((await py(server.baseUrl, 'GET', '/models', undefined, application)).json).iterable;
    const usable = new Map(models.filter((m) => m.cloud || m.downloaded).map((m) => [m.name, m.id]));
    expect(usable.get('GPT-3.5-turbo Chat Model')).toBeTruthy();
    expect((await py(server.baseUrl, 'GET', '/.well-known/version', undefined, application)).text).toMatch(/^12\./);

    // A create then shows on the assets stream; an ask streams an answer into a conversation.
    const created = await py(
      server.baseUrl,
      'POST',
      '/assets/create?transferables=false',
      {
        asset: {
          application: ContextFromJSON(connected.json).application,
          format: { fragment: { string: { raw: 'def wrapper_startup_check():\n    return 42\n' } } },
        },
      },
      application,
    );
    expect(created.status).toBe(200);
    expect(await assets.next()).toEqual({ iterable: [{ asset: { id: created.json.id } }] });
    const ask = sockets[0];
    ask.socket.send(
      python({
        relevance: {
          application,
          model: usable.get('GPT-3.5-turbo Chat Model'),
          options: { question: true },
          query: 'What does wrapper_startup_check return?',
        },
      }),
    );
    const frames = [];
    for (let frame = await ask.next(); ; frame = await ask.next()) {
      frames.push(QGPTStreamOutputFromJSON(frame));
      if (frame.status !== 'IN-PROGRESS') break;
    }
    expect(frames.at(-1)?.status).toBe('COMPLETED');
    expect(frames.map((f) => f.question?.answers.iterable[0]?.text ?? '').join('')).toMatch(/return 42/);
  });
});

describe('the Neovim plugin (1.5.1, on the Python wrapper 5.0.0): its startup and commands, as run for real against Trove', () => {
  let server: TestServer;
  const sockets: StreamClient[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await server.close();
  });
  const open = async (path: string) => {
    const socket = await StreamClient.open(server.baseUrl, path);
    sockets.push(socket);
    return socket;
  };

  it('starts past "You must login" and "Not a valid model name", then Drive, create, edit, Copilot, Chats, delete and Close PiecesOS', async () => {
    // Settings.load_config(): PiecesClient(VIM, connect_websockets=False).
    expect(await head(server.baseUrl)).toBe(200);
    const ask = await open('/qgpt/stream');
    expect((await py(server.baseUrl, 'GET', '/.well-known/health')).text).toMatch(/^ok/);
    const context = ContextFromJSON(
      (
        await py(server.baseUrl, 'POST', '/connect', {
          application: { name: 'VIM', platform: 'LINUX', version: '1.5.1' },
        })
      ).json,
    );
    const app = context.application;
    expect((await py(server.baseUrl, 'GET', '/user', undefined, app.id)).json.user).toBeTruthy();
    const models = ModelsFromJSON((await py(server.baseUrl, 'GET', '/models', undefined, app.id)).json).iterable;
    // Startup.on_startup: model_name = settings' "model_name" or "GPT-4o Chat Model" ("Not a valid model name" otherwise).
    const gpt4o = models.find((m) => m.name === 'GPT-4o Chat Model' && (m.cloud || m.downloaded));
    expect(gpt4o).toBeDefined();
    // HealthWS, then the version check (12.0.0 <= v < 13.0.0), then the plugin's sockets.
    const health = new StreamClient(
      new (await import('ws')).default(`${server.baseUrl.replace('http', 'ws')}/.well-known/stream/health`),
      true,
    );
    sockets.push(health);
    await health.opened;
    expect(await health.next()).toMatch(/^ok/);
    expect((await py(server.baseUrl, 'GET', '/.well-known/version', undefined, app.id)).text).toMatch(/^12\./);
    const assets = await open('/assets/stream/identifiers');
    const auth = await open('/user/stream');
    const conversations = await open('/conversations/stream/identifiers');
    // The login gate of every command but :PiecesHealth and the versions: AuthWS has delivered the user.
    expect(UserProfileFromJSON(await auth.next()).name).toBe('Local user (Trove needs no sign-in)');
    expect(await assets.next()).toEqual({ iterable: [] });
    expect(await conversations.next()).toEqual({ iterable: [] });

    // :'<,'>PiecesCreateMaterial on a Python buffer (FragmentMetadata(ext=...) from the filetype map).
    const raw = 'def fibonacci(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a';
    const created = await py(
      server.baseUrl,
      'POST',
      '/assets/create?transferables=false',
      { asset: { application: app, format: { fragment: { metadata: { ext: 'pyx' }, string: { raw } } } } },
      app.id,
    );
    expect(created.status).toBe(200);
    const id = created.json.id;
    expect(await assets.next()).toEqual({ iterable: [{ asset: { id } }] });
    // BasicAsset(id): the asset, then its format with content (what :PiecesDrive lists and previews).
    const asset = AssetFromJSON((await py(server.baseUrl, 'GET', `/asset/${id}`, undefined, app.id)).json);
    expect(asset.name).toBe('fibonacci (Python function)');
    const formatId = asset.original.id;
    const format = await py(server.baseUrl, 'GET', `/format/${formatId}?transferable=true`, undefined, app.id);
    expect(format.json.fragment.string.raw).toBe(raw);

    // Drive <CR>, edit, :w: BasicAsset.raw_content = ... sends the whole format back with the new value.
    const edited = `${raw}\n# edited in Neovim`;
    const updated = await py(
      server.baseUrl,
      'POST',
      '/format/update/value?transferable=false',
      { ...format.json, fragment: { string: { raw: edited } } },
      app.id,
    );
    expect(updated.status).toBe(200);
    expect(await assets.next()).toEqual({ iterable: [{ asset: { id } }] });
    expect(
      (await py(server.baseUrl, 'GET', `/format/${formatId}?transferable=true`, undefined, app.id)).json.fragment.string
        .raw,
    ).toBe(edited);

    // :PiecesCopilot, a question in its input box (the model the wrapper selected; no conversation yet).
    ask.socket.send(
      python({
        relevance: {
          application: app.id,
          model: gpt4o!.id,
          options: { question: true },
          query: '\nWhat does fibonacci return?',
        },
      }),
    );
    const frames = [];
    for (let frame = await ask.next(); ; frame = await ask.next()) {
      expectWire('QGPTStreamOutput', frame);
      frames.push(frame);
      if (frame.status !== 'IN-PROGRESS') break;
    }
    expect(frames.at(-1).status).toBe('COMPLETED');
    expect(frames.map((f) => f.question?.answers.iterable[0].text ?? '').join('')).toMatch(/return a/);
    const conversation = frames[0].conversation;
    // The conversation is announced; :PiecesChats lists it (BasicChat reads it).
    expect((await conversations.next()).iterable).toEqual([{ conversation: { id: conversation } }]);
    const chat = await py(server.baseUrl, 'GET', `/conversation/${conversation}`, undefined, app.id);
    expect(chat.json.name).toBe('What does fibonacci return?');

    // The Drive's delete key: BasicAsset.delete().
    expect((await py(server.baseUrl, 'POST', `/assets/${id}/delete`, undefined, app.id)).status).toBe(200);
    let deleted;
    do deleted = await assets.next();
    while (!deleted.iterable[0]?.deleted);
    expect(deleted).toEqual({ iterable: [{ asset: { id }, deleted: true }] });

    // :PiecesClosePiecesOS: os_terminate(); Trove stops (local mode) and :PiecesHealth says Failed.
    expect((await py(server.baseUrl, 'POST', '/os/terminate', undefined, app.id)).status).toBe(204);
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(`${server.baseUrl}/.well-known/health`, { signal: AbortSignal.timeout(200) });
      } catch {
        return; // not listening any more
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('Trove still answers after POST /os/terminate');
  });
});

describe("Pieces for Sublime (1.10.9): startup, the model list and a model's download", () => {
  let fake: FakeLlm;
  let server: TestServer;
  const sockets: StreamClient[] = [];
  beforeAll(async () => {
    fake = await startFakeLlm();
    fake.pullable = {
      'llama3.2:1b-instruct-q4_K_S': [
        { digest: 'sha256:74701a8c35f6c8d9a4b91f3f3497643001d63e0c7a84e085bed452548fa88d45', total: 512 * 1024 * 1024 },
      ],
    };
    fake.pullChunk = 32 * 1024 * 1024;
    server = await startTestServer({ TROVE_OLLAMA_URL: fake.ollamaUrl });
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await server.close();
    await fake.close();
  });
  const open = async (path: string) => {
    const socket = await StreamClient.open(server.baseUrl, path);
    sockets.push(socket);
    return socket;
  };

  it('starts with its default model (o4-mini-2025-04-16 by unique) and opens its sockets, the anchors one included', async () => {
    // PiecesSettings.api_client = PiecesClient(SUBLIME, connect_websockets=False, reconnect_on_host_change=False)
    expect(await head(server.baseUrl)).toBe(200);
    const app = ContextFromJSON(
      (
        await py(server.baseUrl, 'POST', '/connect', {
          application: { name: 'SUBLIME', platform: 'LINUX', version: '1.10.9' },
        })
      ).json,
    ).application;
    expect((await py(server.baseUrl, 'GET', '/user', undefined, app.id)).json.user).toBeTruthy();
    const models = ModelsFromJSON((await py(server.baseUrl, 'GET', '/models', undefined, app.id)).json).iterable;
    // models_init(settings "model"): {model.unique: model}[...].id; without it Sublime's copilot cannot start.
    const byUnique = new Map(models.filter((m) => m.unique).map((m) => [m.unique, m]));
    expect(byUnique.get('o4-mini-2025-04-16')?.id).toBeTruthy();
    expect(byUnique.get('gpt-4o')?.id).toBeTruthy();
    // startup(): the version check, then ConversationWS, AssetsIdentifiersWS, AuthWS, AnchorsIdentifiersWS;
    // BaseWebsocket.wait_all() (re-rendering open copilot views) waits for every first frame.
    expect((await py(server.baseUrl, 'GET', '/.well-known/version', undefined, app.id)).text).toMatch(/^12\./);
    for (const path of [
      '/conversations/stream/identifiers',
      '/assets/stream/identifiers',
      '/anchors/stream/identifiers',
    ]) {
      expect(StreamedIdentifiersFromJSON(await (await open(path)).next()).iterable).toEqual([]);
    }
    expect(UserProfileFromJSON(await (await open('/user/stream')).next()).id).toBeTruthy();
  });

  it('"Pieces: Change LLM": lists its models by unique, downloads a local one with a progress bar, and can cancel', async () => {
    // ModelsInputHandler.list_items(): update_model_map(), then each of its models found by unique.
    const models = ModelsFromJSON((await py(server.baseUrl, 'GET', '/models')).json).iterable;
    const llama = models.find((m) => m.unique === 'llama3.2:1b-instruct-q4_K_S')!;
    // model_status: not cloud, not downloaded, not downloading: "Click to Download".
    expect(llama).toMatchObject({ cloud: false, downloaded: false, downloading: false });
    // is_pro() for pro models: SubscriptionsApi.subscriptions_snapshot(), any `active`.
    expect(
      (await py(server.baseUrl, 'GET', '/subscriptions')).json.iterable.some((s: { active: boolean }) => s.active),
    ).toBe(false);

    // download_llm(): model_specific_model_download(model.id), then ModelDownloadWS(download_model.id).
    const download = await py(server.baseUrl, 'POST', `/model/${llama.id}/download`);
    expect(download.status).toBe(200);
    expect(download.json.id).toBe(llama.id);
    const progress = await open(`/model/${download.json.id}/download/progress`);
    const seen = [];
    for (;;) {
      const message = ModelDownloadProgressFromJSON(await progress.next());
      seen.push(message);
      // on_message_callback: IN-PROGRESS updates the bar with `percentage`; anything else stops it and closes the socket.
      if (message.status !== 'IN-PROGRESS') break;
      expect(typeof message.percentage).toBe('number');
    }
    expect(seen.at(-1)).toEqual({ status: 'COMPLETED', percentage: 100 });
    expect(seen.length).toBeGreaterThan(3);
    progress.close();
    // The next list shows it "On-Device".
    expect(
      ModelsFromJSON((await py(server.baseUrl, 'GET', '/models')).json).iterable.find((m) => m.id === llama.id),
    ).toMatchObject({ downloaded: true });

    // Choosing a model that is downloading cancels it: model_specific_model_download_cancel(model.id).
    fake.pullable['phi4:14b-q4_K_M'] = [
      {
        digest: 'sha256:fd7b6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20',
        total: 9 * 1024 * 1024 * 1024,
      },
    ];
    fake.pullDelayMs = 30;
    const phi = derivedId('ollama', 'phi4:14b-q4_K_M');
    await py(server.baseUrl, 'POST', `/model/${phi}/download`);
    const phiProgress = await open(`/model/${phi}/download/progress`);
    expect((await phiProgress.next()).status).toBe('IN-PROGRESS');
    expect((await py(server.baseUrl, 'POST', `/model/${phi}/download/cancel`)).json).toMatchObject({
      id: phi,
      downloading: false,
    });
    let last;
    do last = ModelDownloadProgressFromJSON(await phiProgress.next());
    while (last.status === 'IN-PROGRESS');
    expect(last.status).toBe('CANCELED');
    fake.pullDelayMs = 5;
  });
});

describe('the Raycast extension: its preflight (health, version, connect, settings), the streams it opens, save and draft', () => {
  let server: TestServer;
  const sockets: StreamClient[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await server.close();
  });
  const open = async (path: string) => {
    const socket = await StreamClient.open(server.baseUrl, path);
    sockets.push(socket);
    return socket;
  };
  /** As Raycast's SDK calls go (node-fetch; JSON bodies; the `application` header once connected). */
  const ts = (method: string, path: string, body?: unknown, application?: string) =>
    http(server.baseUrl, method, path, body, {
      ...(application ? { application } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    });

  it('passes its preflight and login check, follows the assets stream, saves a snippet and drafts clipboard items', async () => {
    // AssetsController: AssetStream and UserStream open first; PiecesPreflightService reads the user from the stream.
    const assets = await open('/assets/stream/identifiers');
    const user = await open('/user/stream');
    const first = StreamedIdentifiersFromJSON(await assets.next());
    expect(first.iterable).toEqual([]);
    expect(UserProfileFromJSON(await user.next()).id).toBeTruthy(); // authenticated = !!user
    // piecesInstalledCheck(): getWellKnownHealth; piecesUpToDateCheck(): the version within 12.0.0 <= v < 13.0.0.
    expect((await ts('GET', '/.well-known/health')).text).toMatch(/^ok/);
    expect((await ts('GET', '/.well-known/version')).text).toMatch(/^12\./);
    // piecesHealthCheck(): ContextService.getApplication() (connect as RAYCAST), then its "cloud capabilities"
    // preference compared with the application's, and POST /application/update when they differ.
    const context = ContextFromJSON(
      (await ts('POST', '/connect', { application: { name: 'RAYCAST', version: '1.2.0', platform: 'MACOS' } })).json,
    );
    const application = context.application;
    expect(application.capabilities?.toLowerCase()).toBe('local'); // preference "local": no update needed
    const blended = await ts(
      'POST',
      '/application/update',
      { ...application, capabilities: 'BLENDED' },
      application.id,
    );
    expect(blended.json.capabilities).toBe('BLENDED');
    // The update check is only asked for below the minimum version; it answers honestly when asked.
    expect((await ts('POST', '/os/update/check', {})).json.status).toBe('UP_TO_DATE');

    // saveTextToPieces(): the seed with the connected application, then assetsCreateNewAsset.
    const seed = {
      type: 'SEEDED_ASSET',
      asset: {
        application: blended.json,
        format: { fragment: { string: { raw: 'git log --oneline --graph --decorate --all' }, metadata: {} } },
        metadata: { anchors: [] },
        enrichment: { tags: 0, websites: 0, hints: 0, persons: 0 },
      },
    };
    const created = await ts('POST', '/assets/create', seed, application.id);
    expect(created.status).toBe(200);
    const id = created.json.id;
    // AssetStream: not the first message, not deleted: the id goes to the fetch queue.
    expect(await assets.next()).toEqual({ iterable: [{ asset: { id } }] });
    // fetchAsset(): the asset without content, then its original and preview formats with content
    // (then its annotations, tags and websites by id: the records collections).
    const asset = AssetFromJSON((await ts('GET', `/asset/${id}?transferables=false`, undefined, application.id)).json);
    const original = await ts(
      'GET',
      `/format/${asset.original.reference?.id ?? asset.original.id}?transferable=true`,
      undefined,
      application.id,
    );
    const preview = await ts('GET', `/format/${asset.preview.base.id}?transferable=true`, undefined, application.id);
    expect(original.json.fragment.string.raw).toBe('git log --oneline --graph --decorate --all');
    expect(preview.json.id).toBe(asset.preview.base.id);
    for (const annotation of Object.keys(asset.annotations?.indices ?? {})) {
      expect((await ts('GET', `/annotation/${annotation}`, undefined, application.id)).status).toBe(200);
    }

    // EnrichmentController.draftText(): a clipboard item drafted (SEEDED_ASSET, a file string) for its name and language.
    const draft = await ts(
      'POST',
      '/assets/draft',
      {
        type: 'SEEDED_ASSET',
        asset: {
          application: blended.json,
          format: { file: { string: { raw: 'const add = (a, b) => a + b;\nexport default add;\n' } } },
        },
      },
      application.id,
    );
    expect(draft.status).toBe(200);
    const drafted = SeedFromJSON(draft.json);
    expect(drafted.asset?.format.file?.metadata?.ext ?? drafted.asset?.format.fragment?.metadata?.ext).toBeTruthy();
    expect(drafted.asset?.metadata?.name).toBeTruthy();

    // signin / signout: "You are already logged in!" (GET /user has a user).
    expect((await ts('GET', '/user')).json.user).toBeTruthy();
  });
});

import {
  UserApi,
  UserProfileFromJSON,
  UsersApi,
  WorkstreamPatternEngineStatusFromJSON,
} from '@pieces.app/pieces-os-client';
import { expectError, http } from './support/http';
import { useTestServer } from './support/server';
import { expectWire } from './support/wire';
import { StreamClient } from './support/ws';

/**
 * What the Python wrapper (and the Neovim plugin, Sublime and Raycast on it or like it) need
 * before and as they open their sockets: the local user over HTTP and on WS /user/stream, and
 * a first frame on every stream they open (they wait for it, or count the user as logged out).
 */
describe('the login gate: the local user, over HTTP and on WS /user/stream', () => {
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

  it('WS /user/stream sends the local user at once, as a UserProfile (what GET /user holds), and stays open', async () => {
    const { user } = (await http(server.baseUrl, 'GET', '/user')).json;
    const stream = await open('/user/stream');
    const frame = await stream.next();
    expectWire('UserProfile', frame);
    expect(frame).toEqual(user);
    // Raycast reads it with the SDK; Neovim's wrapper with UserProfile.from_json.
    expect(UserProfileFromJSON(frame).id).toBe(user.id);
    await stream.quiet(300);
    expect(stream.socket.readyState).toBe(stream.socket.OPEN);
  });

  it('GET /users lists the one local user, GET /users/{id} reads it, any other id is a 404', async () => {
    const { user } = (await http(server.baseUrl, 'GET', '/user')).json;
    const users = await new UsersApi(server.sdk).usersSnapshot();
    expect(users.iterable?.map((u) => u.id)).toEqual([user.id]);
    expectWire('Users', (await http(server.baseUrl, 'GET', '/users')).json);
    expect((await new UsersApi(server.sdk).usersSpecificUserSnapshot({ user: user.id })).id).toBe(user.id);
    expectError(
      await http(server.baseUrl, 'GET', '/users/7b0c5e55-0000-4000-8000-000000000003'),
      404,
      /one local user/,
    );
    expect((await new UserApi(server.sdk).userSnapshot()).user?.id).toBe(user.id);
  });

  it('GET /subscriptions: no cloud plan, so none (Sublime reads `active` of each to offer pro models)', async () => {
    const res = await http(server.baseUrl, 'GET', '/subscriptions');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ iterable: [], indices: {} });
  });

  it('WS /workstream_pattern_engine/processors/vision/status/stream: the status at once (the wrapper then reads it over HTTP)', async () => {
    const stream = await open('/workstream_pattern_engine/processors/vision/status/stream');
    const frame = await stream.next();
    expect(WorkstreamPatternEngineStatusFromJSON(frame).vision?.activation?.from?.value).toBeDefined();
    expect(frame).toEqual(
      (await http(server.baseUrl, 'GET', '/workstream_pattern_engine/processors/vision/status')).json,
    );
  });

  it('WS /ranges/stream/identifiers: the first frame, even empty', async () => {
    const stream = await open('/ranges/stream/identifiers');
    expect(await stream.next()).toEqual({ iterable: [] });
  });

  it('WS /anchors/stream/identifiers: every anchor at once (even none), then one frame per new anchor (POST /anchors/create, a conversation seeded with one)', async () => {
    const empty = await open('/anchors/stream/identifiers');
    expect(await empty.next()).toEqual({ iterable: [] });
    const created = await http(server.baseUrl, 'POST', '/anchors/create', {
      type: 'FILE',
      fullpath: '/home/dev/project/main.py',
    });
    expect(created.status).toBe(200);
    expect(await empty.next()).toEqual({ iterable: [{ anchor: { id: created.json.id } }] });
    // The same path again is the same anchor: nothing new to announce.
    expect(
      (await http(server.baseUrl, 'POST', '/anchors/create', { type: 'FILE', fullpath: '/home/dev/project/main.py' }))
        .json.id,
    ).toBe(created.json.id);
    await empty.quiet(300);

    const conversation = await http(server.baseUrl, 'POST', '/conversations/create', {
      type: 'COPILOT',
      name: 'With a folder',
      anchors: [{ type: 'DIRECTORY', fullpath: '/home/dev/project' }],
    });
    expect(conversation.status).toBe(200);
    const anchorOfConversation = (await empty.next()).iterable[0].anchor.id;
    expect(
      (await http(server.baseUrl, 'GET', `/anchor/${anchorOfConversation}`)).json.points.iterable[0].reference.fullpath,
    ).toBe('/home/dev/project');

    const later = await open('/anchors/stream/identifiers');
    const ids = (await later.next()).iterable.map((i: { anchor: { id: string } }) => i.anchor.id);
    expect(ids.sort()).toEqual([created.json.id, anchorOfConversation].sort());
  });
});

import {
  ConversationFromJSON,
  ConversationMessageFromJSON,
  ConversationsFromJSON,
  QGPTQuestionOutputFromJSON,
  ReturnedUserProfileFromJSON,
} from '@pieces.app/pieces-os-client';
import { RawResponse, http } from './support/http';
import { useTestServer } from './support/server';
import { StreamClient } from './support/ws';
import { expectWire } from './support/wire';

/**
 * The copilot SDKs' conversation flow (mason-at-pieces/pieces-copilot-typescript-sdk, the
 * `pieces-copilot-sdk` that pieces-app/example-typescript's Copilot view uses), replayed request
 * by request in the order its code makes them, with the exact bodies its calls write (the SDK's
 * `XToJSON` of what `PiecesClient` builds), and checked as it reads the answers (the SDK's
 * `XFromJSON`). The SDK keeps a chat in Trove itself: it appends each question and each answer
 * with POST /messages/create, and asks with the chat's earlier messages as relevant seeds.
 */

/** PiecesClient's default `trackedApplication` (index.ts): its id is the literal "DEFAULT". */
const TRACKED = {
  id: 'DEFAULT',
  name: 'OPEN_SOURCE',
  version: '0.0.1',
  platform: 'MACOS',
  onboarded: false,
  privacy: 'ANONYMOUS',
};

/** createConversation({name}): conversationsCreateSpecificConversation's body. */
const createBody = (name: string) =>
  JSON.stringify({ name, type: 'COPILOT', pipeline: { conversation: { contextualized_code_dialog: {} } } });

/** promptConversation: messagesCreateSpecificMessage's body (role USER, then ASSISTANT). */
const messageBody = (role: 'USER' | 'ASSISTANT', raw: string, conversation: string) =>
  JSON.stringify({ fragment: { string: { raw } }, conversation: { id: conversation }, role });

/** promptConversation: question's body, the chat's earlier messages as seeds of the tracked application. */
const promptBody = (query: string, earlier: string[]) =>
  JSON.stringify({
    relevant: {
      iterable: earlier.map((raw) => ({
        seed: { asset: { application: TRACKED, format: { fragment: { string: { raw } } } }, type: 'SEEDED_ASSET' },
      })),
    },
    query,
    pipeline: { conversation: { contextualized_code_dialog: {} } },
  });

/** askQuestion: question's body, nothing relevant, the generalized pipeline. */
const askBody = (query: string) =>
  JSON.stringify({ relevant: { iterable: [] }, query, pipeline: { conversation: { generalized_code_dialog: {} } } });

const SNIPPET =
  'def settle_invoice(invoice, ledger):\n    """Mark the invoice paid and record the payment in the ledger."""\n    ledger.record(invoice.total)\n    invoice.paid = True\n';

describe('the copilot SDK (pieces-copilot-sdk) against Trove', () => {
  const server = useTestServer();
  const send = async (method: string, path: string, body?: string): Promise<RawResponse> => {
    const res = await http(
      server.baseUrl,
      method,
      path,
      body,
      body === undefined ? {} : { 'content-type': 'application/json' },
    );
    expect({ call: `${method} ${path}`, status: res.status }).toEqual({
      call: `${method} ${path}`,
      status: res.status === 204 ? 204 : 200,
    });
    return res;
  };

  /** PiecesClient.getConversation({conversationId, includeRawMessages: true}): the conversation, then each message by `indices`. */
  async function getConversation(id: string): Promise<{
    conversation: ReturnType<typeof ConversationFromJSON>;
    rawMessages: Array<{ message: string; isUserMessage: boolean }>;
  }> {
    const res = await send('GET', `/conversation/${id}`);
    expectWire('Conversation', res.json);
    const conversation = ConversationFromJSON(res.json);
    const rawMessages: Array<{ message: string; isUserMessage: boolean }> = [];
    for (const messageId of Object.keys(conversation.messages.indices || {})) {
      const message = ConversationMessageFromJSON((await send('GET', `/message/${messageId}`)).json);
      if (!message.fragment?.string?.raw) continue;
      rawMessages.push({ message: message.fragment.string.raw, isUserMessage: message.role === 'USER' });
    }
    return { conversation, rawMessages };
  }

  /** PiecesClient.promptConversation({message, conversationId, regenerateConversationName}), call by call. */
  async function promptConversation(message: string, conversationId: string, regenerateConversationName = false) {
    const { rawMessages } = await getConversation(conversationId);
    const user = ConversationMessageFromJSON(
      (await send('POST', '/messages/create', messageBody('USER', message, conversationId))).json,
    );
    const asked = await send(
      'POST',
      '/qgpt/question',
      promptBody(
        message,
        rawMessages.map((m) => m.message),
      ),
    );
    expectWire('QGPTQuestionOutput', asked.json);
    const text = QGPTQuestionOutputFromJSON(asked.json).answers.iterable[0].text;
    const bot = ConversationMessageFromJSON(
      (await send('POST', '/messages/create', messageBody('ASSISTANT', text, conversationId))).json,
    );
    let name: string | undefined;
    if (regenerateConversationName)
      name = ConversationFromJSON((await send('POST', `/conversation/${conversationId}/rename`)).json).name;
    return { text, userMessageId: user.id, botMessageId: bot.id, name };
  }

  beforeAll(async () => {
    // What the chat can be grounded in: a snippet the user saved.
    const created = await http(server.baseUrl, 'POST', '/assets/create', {
      type: 'SEEDED_ASSET',
      asset: {
        application: TRACKED,
        format: { fragment: { string: { raw: SNIPPET } } },
        metadata: { name: 'settle invoice' },
      },
    });
    expect(created.status).toBe(200);
  });

  it('createConversation({name, firstMessage}) then promptConversation twice: every question and answer is stored, in order, and the second asks with the first exchange', async () => {
    const stream = await StreamClient.open(server.baseUrl, '/conversations/stream/identifiers');
    await stream.next();
    const created = await send('POST', '/conversations/create', createBody('Invoices'));
    expectWire('Conversation', created.json);
    const conversation = ConversationFromJSON(created.json);
    expect(conversation).toMatchObject({ name: 'Invoices', type: 'COPILOT' });

    const first = await promptConversation('How do I settle an invoice?', conversation.id);
    expect(first.text.length).toBeGreaterThan(0);
    const second = await promptConversation('And what does it record?', conversation.id, true);
    expect(second.text.length).toBeGreaterThan(0);
    expect(second.name).toBeTruthy();

    // getConversation({includeRawMessages: true}) as example-typescript's Copilot view shows it.
    const { conversation: read, rawMessages } = await getConversation(conversation.id);
    expect(rawMessages).toEqual([
      { message: 'How do I settle an invoice?', isUserMessage: true },
      { message: first.text, isUserMessage: false },
      { message: 'And what does it record?', isUserMessage: true },
      { message: second.text, isUserMessage: false },
    ]);
    expect(read.messages.indices).toEqual({
      [first.userMessageId]: 0,
      [first.botMessageId]: 1,
      [second.userMessageId]: 2,
      [second.botMessageId]: 3,
    });
    // Every message was announced as a change of the chat.
    const announced = new Set<string>();
    while (announced.size === 0 || !announced.has(conversation.id))
      for (const item of (await stream.next()).iterable) announced.add(item.conversation.id);
    stream.socket.close();
  });

  it("asks with the chat's earlier messages as seeds of an application whose id is not a UUID (the SDK's literal DEFAULT)", async () => {
    const created = ConversationFromJSON(
      (await send('POST', '/conversations/create', createBody('New Conversation'))).json,
    );
    await send('POST', '/messages/create', messageBody('USER', 'Which function settles invoices?', created.id));
    await send(
      'POST',
      '/messages/create',
      messageBody('ASSISTANT', 'settle_invoice marks the invoice paid.', created.id),
    );
    const asked = await send(
      'POST',
      '/qgpt/question',
      promptBody('What does it record?', [
        'Which function settles invoices?',
        'settle_invoice marks the invoice paid.',
      ]),
    );
    expect(QGPTQuestionOutputFromJSON(asked.json).answers.iterable[0].text.length).toBeGreaterThan(0);
  });

  it('getConversations() lists the chats; askQuestion() answers without a chat; getUserProfilePicture() reads the user', async () => {
    const list = await send('GET', '/conversations');
    expectWire('Conversations', list.json);
    const conversations = ConversationsFromJSON(list.json).iterable;
    // Most recent first: the chat of the second test, then the renamed one of the first.
    expect(conversations.map((c) => c.name)).toEqual(['New Conversation', expect.any(String)]);
    expect(conversations[1].name).not.toBe('Invoices'); // regenerateConversationName renamed it
    // example-typescript opens the first chat and shows its messages (rawMessages[1] when [0] is the user's).
    const { rawMessages } = await getConversation(conversations[0].id);
    expect(rawMessages.map((m) => m.isUserMessage)).toEqual([true, false]);
    expect(rawMessages[1].message).toBe('settle_invoice marks the invoice paid.');
    const answer = await send('POST', '/qgpt/question', askBody('What does settle_invoice do?'));
    expect(QGPTQuestionOutputFromJSON(answer.json).answers.iterable[0].text).toMatch(/invoice|ledger/i);
    const user = ReturnedUserProfileFromJSON((await send('GET', '/user')).json);
    expect(user.user?.id).toBeTruthy();
    expect(user.user?.picture).toBeUndefined();
  });

  it('a message for a conversation that does not exist is a 404 and stores nothing', async () => {
    const before = await server.counts(['conversation_messages']);
    const res = await http(
      server.baseUrl,
      'POST',
      '/messages/create',
      messageBody('USER', 'lost', '0a0b0c0d-0000-4000-8000-00000000dead'),
      {
        'content-type': 'application/json',
      },
    );
    expect(res.status).toBe(404);
    expect(await server.counts(['conversation_messages'])).toBe(before);
  });
});

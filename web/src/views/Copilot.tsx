import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useApp } from '../app/context';
import { Markdown } from '../components/Markdown';
import { api } from '../lib/api';
import { assetName, assetText, relativeTime } from '../lib/format';
import type { Conversation, Model } from '../lib/types';
import { useQgpt, type LiveAnswer } from './useQgpt';

/** The snippets each chat's latest answer used, this session: they stay listed when the new chat's page takes its id. */
const sourcesOf = new Map<string, string[]>();

/** Models the official clients name that no configured provider serves: the default model answers for them. */
export const standIn = (m: Model) => (m.description ?? '').startsWith('Not served here');
const offline = (m: Model) => m.unique === 'trove-extractive';

/** Copilot (COPILOT): the chats, and a conversation grounded in the store, answered over /qgpt/stream. */
export function Copilot() {
  const { state, update, host } = useApp();
  // Narrow panes show the list or one chat: the list when asked for while this chat was open (or at first with none).
  const [listFor, setListFor] = useState<string | null>(state.chat ? null : 'new');
  const showList = listFor !== null && listFor === (state.chat ?? 'new');
  const chats = useQuery({ queryKey: ['conversations'], queryFn: api.conversations });
  const sorted = useMemo(
    () => [...(chats.data ?? [])].sort((a, b) => b.updated.value.localeCompare(a.updated.value)),
    [chats.data],
  );
  const [pendingAsk, setPendingAsk] = useState<{ query: string; text?: string } | null>(null);

  // The host asks a question (Obsidian's "Ask Copilot about the selection"): a new chat with that text as context.
  useEffect(
    () =>
      host.on('askCopilot', (data) => {
        const d = data as { query?: unknown; relevant?: { text?: unknown } } | null;
        if (typeof d?.query !== 'string') return;
        update({ chat: undefined });
        setListFor(null);
        setPendingAsk({ query: d.query, text: typeof d.relevant?.text === 'string' ? d.relevant.text : undefined });
      }),
    [host, update],
  );

  return (
    <div className={`split copilot ${showList ? 'show-list' : 'has-detail'}`}>
      <section className="pane list-pane chats" aria-label="Chats">
        <div className="toolbar">
          <h2 className="pane-title">Chats</h2>
          <button
            type="button"
            className="primary"
            onClick={() => {
              update({ chat: undefined });
              setListFor(null);
            }}
          >
            New chat
          </button>
        </div>
        {chats.error ? (
          <p className="notice error">{(chats.error as Error).message}</p>
        ) : chats.isPending ? (
          <p className="notice muted">Loading chats…</p>
        ) : sorted.length === 0 ? (
          <div className="empty">
            <p className="empty-title">No chats yet</p>
            <p className="muted">Ask a question about your snippets to start one.</p>
          </div>
        ) : (
          <ul className="chat-list" aria-label="Chat list">
            {sorted.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  className={`chat-item ${c.id === state.chat ? 'selected' : ''}`}
                  aria-current={c.id === state.chat ? 'true' : undefined}
                  onClick={() => {
                    update({ chat: c.id });
                    setListFor(null);
                  }}
                >
                  <span className="row-name">{c.name?.trim() || 'Untitled chat'}</span>
                  <span className="row-time">{relativeTime(c.updated.value)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="pane detail-pane" aria-label="Conversation">
        <Conversation
          key={state.chat ?? 'new'}
          id={state.chat}
          onList={(after) => setListFor(after ?? state.chat ?? 'new')}
          pendingAsk={pendingAsk}
          clearPending={() => setPendingAsk(null)}
        />
      </section>
    </div>
  );
}

function Conversation({
  id,
  onList,
  pendingAsk,
  clearPending,
}: {
  id?: string;
  /** Show the chat list (`after`: the chat open once it shows; 'new' after a delete). */
  onList: (after?: string) => void;
  pendingAsk: { query: string; text?: string } | null;
  clearPending: () => void;
}) {
  const { state, update, notify } = useApp();
  const client = useQueryClient();
  const conversation = useQuery({
    queryKey: ['conversation', id],
    queryFn: () => api.conversation(id!),
    enabled: Boolean(id),
  });
  const messages = useQuery({ queryKey: ['messages', id], queryFn: () => api.messages(id!), enabled: Boolean(id) });
  const models = useQuery({ queryKey: ['models'], queryFn: api.models, staleTime: 60_000 });
  const [draft, setDraft] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const bottom = useRef<HTMLDivElement>(null);
  const { live, ask, stop, clear } = useQgpt((answer: LiveAnswer) => {
    if (answer.status === 'FAILED') notify(answer.error ?? 'the answer failed', 'error');
    if (answer.conversation && answer.status === 'COMPLETED') sourcesOf.set(answer.conversation, answer.sources);
    if (!id && answer.conversation) update({ chat: answer.conversation });
  });
  const busy = live?.status === 'WAITING' || live?.status === 'IN-PROGRESS';

  // (Braces: Chromium's scroll methods return a promise, and an effect may return only its clean-up.)
  useEffect(() => {
    void bottom.current?.scrollIntoView({ block: 'end' });
  }, [messages.data, live?.text]);

  const linked = conversation.data?.assets?.iterable ?? [];
  const send = async (query: string, contextText?: string) => {
    if (!query.trim() || busy) return;
    setDraft('');
    let relevant: Array<{ id: string } | { seed: unknown }> = [];
    let sources: string[] = [];
    try {
      if (contextText) {
        relevant = [seedOf(contextText)];
      } else if (linked.length) {
        const assets = await Promise.all(
          linked
            .slice(0, 5)
            .map((a) => client.fetchQuery({ queryKey: ['asset', a.id], queryFn: () => api.asset(a.id) })),
        );
        relevant = assets.map((a) => seedOf(assetText(a)));
        sources = assets.map((a) => a.id);
      } else {
        const found = (await api.relevance(query)).slice(0, 5);
        relevant = found.map((r) => ({ id: r.id }));
        sources = found.map((r) => r.asset?.id).filter((x): x is string => Boolean(x));
      }
    } catch (error) {
      notify((error as Error).message, 'error');
    }
    await ask({ query, conversation: id, model: state.model, relevant, sources });
  };

  // A question the host asked (askCopilot) is sent once, after this render.
  useEffect(() => {
    if (!pendingAsk || id) return;
    const ask = pendingAsk;
    queueMicrotask(() => {
      clearPending();
      void send(ask.query, ask.text);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pendingAsk, id]);

  const rename = useMutation({
    mutationFn: (name: string) => api.renameConversation(conversation.data as Conversation, name),
    onSuccess: () => {
      setRenaming(null);
      void client.invalidateQueries({ queryKey: ['conversations'] });
      void client.invalidateQueries({ queryKey: ['conversation', id] });
    },
    onError: (error: Error) => notify(error.message, 'error'),
  });
  const remove = useMutation({
    mutationFn: () => api.deleteConversation(id!),
    onSuccess: () => {
      notify('Chat deleted');
      void client.invalidateQueries({ queryKey: ['conversations'] });
      update({ chat: undefined });
      onList('new');
    },
    onError: (error: Error) => notify(error.message, 'error'),
  });

  const stored = messages.data ?? [];
  const showLive =
    live &&
    !(
      live.status === 'COMPLETED' && stored.some((m) => m.role === 'ASSISTANT' && m.fragment?.string?.raw === live.text)
    );
  const title = id ? conversation.data?.name?.trim() || 'Untitled chat' : 'New chat';

  return (
    <div className="conversation">
      <div className="detail-head">
        <button type="button" className="icon back" aria-label="Back to the chats" onClick={() => onList()}>
          ←
        </button>
        {renaming !== null ? (
          <form
            className="rename"
            onSubmit={(e) => {
              e.preventDefault();
              if (renaming.trim()) rename.mutate(renaming.trim());
            }}
          >
            <input
              aria-label="Chat name"
              value={renaming}
              onChange={(e) => setRenaming(e.target.value)}
              autoFocus
              maxLength={300}
            />
            <button type="submit" className="primary small">
              Save
            </button>
            <button type="button" className="small" onClick={() => setRenaming(null)}>
              Cancel
            </button>
          </form>
        ) : (
          <h2 className="detail-title">{title}</h2>
        )}
        {id && renaming === null && (
          <span className="row">
            <button type="button" className="small" onClick={() => setRenaming(conversation.data?.name ?? '')}>
              Rename
            </button>
            {confirming ? (
              <>
                <button type="button" className="small danger" onClick={() => remove.mutate()}>
                  Delete for good
                </button>
                <button type="button" className="small" onClick={() => setConfirming(false)}>
                  Keep
                </button>
              </>
            ) : (
              <button type="button" className="small danger-outline" onClick={() => setConfirming(true)}>
                Delete
              </button>
            )}
          </span>
        )}
      </div>
      {linked.length > 0 && (
        <div className="sources top" aria-label="Snippets this chat is about">
          <span className="muted">About</span>
          {linked.map((a) => (
            <Source key={a.id} id={a.id} />
          ))}
        </div>
      )}
      <div className="messages" aria-live="polite">
        {messages.error && <p className="notice error">{(messages.error as Error).message}</p>}
        {!id && !live && (
          <div className="empty">
            <p className="empty-title">Ask about your snippets</p>
            <p className="muted">
              Answers are grounded in what Trove holds; the snippets used are listed under each answer.
            </p>
          </div>
        )}
        {stored.map((m) => (
          <div key={m.id} className={`message ${m.role === 'USER' ? 'user' : 'assistant'}`}>
            <div className="who">{m.role === 'USER' ? 'You' : 'Copilot'}</div>
            {m.role === 'USER' ? (
              <p className="plain-text">{m.fragment?.string?.raw ?? ''}</p>
            ) : (
              <Markdown text={m.fragment?.string?.raw ?? ''} />
            )}
          </div>
        ))}
        {showLive && live && (
          <>
            {!stored.some((m) => m.role === 'USER' && m.fragment?.string?.raw === live.question) && (
              <div className="message user">
                <div className="who">You</div>
                <p className="plain-text">{live.question}</p>
              </div>
            )}
            <div className="message assistant" aria-busy={busy}>
              <div className="who">Copilot</div>
              {live.text ? <Markdown text={live.text} /> : busy ? <p className="muted">Thinking…</p> : null}
              {live.status === 'FAILED' && <p className="notice error">{live.error}</p>}
              {live.status === 'STOPPED' && <p className="muted">Stopped.</p>}
            </div>
          </>
        )}
        {(() => {
          const used = live?.sources.length ? live.sources : id ? (sourcesOf.get(id) ?? []) : [];
          return used.length > 0 ? (
            <div className="sources" aria-label="Snippets used">
              <span className="muted">Snippets used</span>
              {used.map((s) => (
                <Source key={s} id={s} />
              ))}
            </div>
          ) : null;
        })()}
        <div ref={bottom} />
      </div>
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          void send(draft);
        }}
      >
        <textarea
          aria-label="Message"
          placeholder="Ask about your snippets"
          value={draft}
          rows={2}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send(draft);
            }
          }}
        />
        <div className="composer-bar">
          <ModelPicker
            models={models.data ?? []}
            value={state.model ?? ''}
            onChange={(model) => update({ model: model || undefined })}
          />
          {busy ? (
            <button type="button" onClick={stop}>
              Stop
            </button>
          ) : (
            <button type="submit" className="primary" disabled={!draft.trim()}>
              Send
            </button>
          )}
        </div>
      </form>
      {live && !busy && live.status !== 'COMPLETED' && (
        <button type="button" className="link small" onClick={clear}>
          Dismiss
        </button>
      )}
    </div>
  );
}

function seedOf(text: string) {
  return { seed: { type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: text } } } } } };
}

/** A snippet an answer used: linked to Drive in the browser app, previewed by the host in an applet. */
function Source({ id }: { id: string }) {
  const { role, host, update } = useApp();
  const asset = useQuery({ queryKey: ['asset', id], queryFn: () => api.asset(id) });
  const name = asset.data ? assetName(asset.data) : asset.error ? 'Deleted snippet' : '…';
  if (role === 'app') {
    return (
      <a className="chip link-chip" href={`#/drive/${id}`} onClick={() => update({ view: 'drive', snippet: id })}>
        {name}
      </a>
    );
  }
  if (host.can('previewAsset')) {
    return (
      <button type="button" className="chip link-chip" onClick={() => host.send('previewAsset', id)}>
        {name}
      </button>
    );
  }
  return <span className="chip">{name}</span>;
}

export function ModelPicker({
  models,
  value,
  onChange,
  label = 'Model',
}: {
  models: Model[];
  value: string;
  onChange: (id: string) => void;
  label?: string;
}) {
  const served = models.filter((m) => !standIn(m) && m.usage !== 'EMBEDDING');
  const standIns = models.filter(standIn);
  return (
    <select className="model-picker" aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Trove's default model</option>
      <optgroup label="Served here">
        {served.map((m) => (
          <option key={m.id} value={m.id}>
            {offline(m) ? 'Offline engine (quotes your snippets, writes no text)' : m.name}
          </option>
        ))}
      </optgroup>
      {standIns.length > 0 && (
        <optgroup label="Not served here (the default model answers)">
          {standIns.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </optgroup>
      )}
    </select>
  );
}

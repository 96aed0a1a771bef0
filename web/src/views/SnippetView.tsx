import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApp } from '../app/context';
import { Code } from '../components/Code';
import { api } from '../lib/api';
import {
  assetDescription,
  assetLanguage,
  assetName,
  assetText,
  languageName,
  mainFormat,
  relativeTime,
  safeHttpUrl,
  secretNames,
} from '../lib/format';
import type { Asset } from '../lib/types';
import { useStores } from './useStores';

/** One snippet: its code highlighted, name, description, tags, websites, related snippets and activity; edit, delete, insert, copy, ask. */
export function SnippetView({ id, onClose }: { id: string; onClose: () => void }) {
  const { host, role, update, notify, copy } = useApp();
  const { current, copyTargets } = useStores();
  const [target, setTarget] = useState('');
  const copyTo = useMutation({
    mutationFn: (space: string) => api.copyToSpace(id, space),
    onSuccess: (copied) => {
      notify(`Copied to ${copied.space.name}`);
      setTarget('');
    },
    onError: (error: Error) => notify(error.message, 'error'),
  });
  const client = useQueryClient();
  const asset = useQuery({ queryKey: ['asset', id], queryFn: () => api.asset(id) });
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [copyConfirming, setCopyConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.deleteAsset(id),
    onSuccess: () => {
      notify('Snippet deleted');
      void client.invalidateQueries({ queryKey: ['assets'] });
      void client.invalidateQueries({ queryKey: ['search'] });
      onClose();
    },
    onError: (error: Error) => notify(error.message, 'error'),
  });
  const ask = useMutation({
    mutationFn: () => api.chatAbout(id),
    onSuccess: (conversation) => {
      if (role === 'app') update({ view: 'copilot', chat: conversation.id });
      else host.send('focusCopilotConversation', conversation);
    },
    onError: (error: Error) => notify(error.message, 'error'),
  });

  if (asset.isPending) {
    return (
      <div className="detail">
        <BackButton onClose={onClose} />
        <p className="muted">Loading…</p>
      </div>
    );
  }
  if (asset.error) {
    return (
      <div className="detail">
        <BackButton onClose={onClose} />
        <p className="notice error">{(asset.error as Error).message}</p>
      </div>
    );
  }
  const a = asset.data;
  const text = assetText(a);
  // A chat about a snippet is saved in the store it is in: not by one of a space's readers.
  const canAsk = (role === 'app' || host.can('focusCopilotConversation')) && current.role !== 'reader';
  const secrets = secretNames(a);
  const doCopy = () =>
    copy(text).then(
      () => notify('Copied'),
      (e: Error) => notify(e.message, 'error'),
    );
  if (editing) return <EditSnippet asset={a} onDone={() => setEditing(false)} />;
  return (
    <article className="detail" aria-labelledby="snippet-title">
      <div className="detail-head">
        <BackButton onClose={onClose} />
        <h2 id="snippet-title" className="detail-title">
          {assetName(a)}
        </h2>
      </div>
      <div className="meta-line">
        <span className="lang">{languageName(assetLanguage(a))}</span>
        <span className="muted">Saved {relativeTime(a.created.value)}</span>
        {mainFormat(a)?.application?.name && <span className="muted">from {mainFormat(a)!.application!.name}</span>}
      </div>
      {secrets.length > 0 && (
        <p className="notice warning secret-warning" role="note">
          This snippet holds {secrets.length === 1 ? 'a secret' : 'secrets'} ({secrets.join(', ')}): mind where you
          paste it.
        </p>
      )}
      {assetDescription(a) && <p className="description">{assetDescription(a)}</p>}
      <div className="actions" role="toolbar" aria-label="Snippet actions">
        {host.can('insertAtCursor') && (
          <button type="button" className="primary" onClick={() => host.send('insertAtCursor', text)}>
            Insert
          </button>
        )}
        {copyConfirming ? (
          <span className="confirm" role="group" aria-label="Confirm copy">
            <button
              type="button"
              className="danger"
              onClick={() => {
                setCopyConfirming(false);
                void doCopy();
              }}
            >
              Copy with the secret
            </button>
            <button type="button" onClick={() => setCopyConfirming(false)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" onClick={() => (secrets.length > 0 ? setCopyConfirming(true) : void doCopy())}>
            Copy
          </button>
        )}
        {canAsk && (
          <button type="button" onClick={() => ask.mutate()} disabled={ask.isPending}>
            Ask Copilot about this
          </button>
        )}
        {copyTargets.length > 0 && (
          <span className="copy-to" role="group" aria-label="Copy to a space">
            <select aria-label="Space to copy to" value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="">Copy to a space…</option>
              {copyTargets.map((s) => (
                <option key={s.space} value={s.name}>
                  {s.name}
                </option>
              ))}
            </select>
            <button type="button" onClick={() => copyTo.mutate(target)} disabled={!target || copyTo.isPending}>
              Copy to space
            </button>
          </span>
        )}
        {current.role !== 'reader' && (
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        {current.role === 'reader' ? null : confirming ? (
          <span className="confirm" role="group" aria-label="Confirm delete">
            <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
              Delete for good
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" className="danger-outline" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
      <Code value={text} language={assetLanguage(a)} label={`Code of ${assetName(a)}`} />
      <Tags asset={a} />
      <Websites asset={a} />
      <Related id={id} />
      <Activity id={id} />
    </article>
  );
}

function BackButton({ onClose }: { onClose: () => void }) {
  return (
    <button type="button" className="icon back" aria-label="Back to the list" onClick={onClose}>
      ←
    </button>
  );
}

function Tags({ asset }: { asset: Asset }) {
  const tags = asset.tags?.iterable ?? [];
  if (!tags.length) return null;
  return (
    <section className="section" aria-label="Tags">
      <h3>Tags</h3>
      <div className="chips">
        {tags.map((t) => (
          <span key={t.id} className="chip">
            {t.text}
          </span>
        ))}
      </div>
    </section>
  );
}

function Websites({ asset }: { asset: Asset }) {
  const { host } = useApp();
  const sites = asset.websites?.iterable ?? [];
  if (!sites.length) return null;
  return (
    <section className="section" aria-label="Websites">
      <h3>Websites</h3>
      <ul className="plain">
        {sites.map((w) => {
          const href = safeHttpUrl(w.url);
          return (
            <li key={w.id}>
              {href ? (
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  onClick={(e) => {
                    if (host.embedded) {
                      e.preventDefault();
                      host.send('openLink', { link: href });
                    }
                  }}
                >
                  {w.name || href}
                </a>
              ) : (
                <span>{w.name || w.url}</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Related({ id }: { id: string }) {
  const { update } = useApp();
  const related = useQuery({ queryKey: ['related', id], queryFn: () => api.related(id) });
  const items = (related.data ?? []).filter((a) => a.id !== id).slice(0, 5);
  if (!items.length) return null;
  return (
    <section className="section" aria-label="Related snippets">
      <h3>Related</h3>
      <ul className="plain">
        {items.map((a) => (
          <li key={a.id}>
            <button type="button" className="link" onClick={() => update({ snippet: a.id })}>
              {assetName(a)}
            </button>{' '}
            <span className="muted">{languageName(assetLanguage(a))}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

const ACTIVITY: Record<string, string> = {
  asset_created: 'Saved',
  asset_updated: 'Edited',
  asset_referenced: 'Opened',
  asset_viewed: 'Viewed',
  asset_searched: 'Found by a search',
  assets_searched: 'Found by a search',
  asset_copied: 'Copied',
  asset_inserted: 'Inserted',
};

function Activity({ id }: { id: string }) {
  const activities = useQuery({ queryKey: ['activities', id], queryFn: () => api.activities(id) });
  // Consecutive events of the same kind from the same application read as one line ("Viewed ×6").
  const groups: Array<{ id: string; label: string; app?: string; when: string; count: number }> = [];
  for (const item of activities.data ?? []) {
    // An activity names what happened in `event.asset` (or `event.assets` for a search that found it).
    const event = (item.event?.asset ?? item.event?.assets) as
      { identifier_description_pair?: Record<string, string>; metadata?: { search?: { query?: string } } } | undefined;
    const key = Object.keys(event?.identifier_description_pair ?? {})[0] ?? '';
    const query = event?.metadata?.search?.query;
    const label =
      key === 'assets_searched' && query
        ? `Found by “${query}”`
        : (ACTIVITY[key] ?? (capitalize(key.replace(/^assets?_/, '').replace(/_/g, ' ')) || 'Activity'));
    const last = groups[groups.length - 1];
    if (last && last.label === label && last.app === item.application?.name) last.count++;
    else groups.push({ id: item.id, label, app: item.application?.name, when: item.created.value, count: 1 });
  }
  if (!groups.length) return null;
  return (
    <section className="section" aria-label="Activity">
      <h3>Activity</h3>
      <ul className="plain activity">
        {groups.slice(0, 6).map((g) => (
          <li key={g.id}>
            <span>{g.count > 1 ? `${g.label} ×${g.count}` : g.label}</span>
            {g.app && <span className="muted"> · {g.app}</span>}
            <span className="muted"> · {relativeTime(g.when)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function EditSnippet({ asset, onDone }: { asset: Asset; onDone: () => void }) {
  const { notify } = useApp();
  const client = useQueryClient();
  const [name, setName] = useState(asset.name ?? '');
  const [tags, setTags] = useState((asset.tags?.iterable ?? []).map((t) => t.text).join(', '));
  const [text, setText] = useState(assetText(asset));
  const format = mainFormat(asset);
  const save = useMutation({
    mutationFn: () =>
      api.updateAsset({
        id: asset.id,
        name,
        tags: tags
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
        ...(format && text !== assetText(asset) ? { format: { id: format.id, raw: text } } : {}),
      }),
    onSuccess: (updated) => {
      client.setQueryData(['asset', asset.id], updated);
      void client.invalidateQueries({ queryKey: ['assets'] });
      void client.invalidateQueries({ queryKey: ['search'] });
      notify('Saved');
      onDone();
    },
    onError: (error: Error) => notify(error.message, 'error'),
  });
  return (
    <form
      className="detail edit"
      aria-label="Edit snippet"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <label className="field">
        <span>Name</span>
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={500} />
      </label>
      <label className="field">
        <span>Tags (comma-separated)</span>
        <input value={tags} onChange={(e) => setTags(e.target.value)} />
      </label>
      <div className="field">
        <span id="edit-content-label">Content</span>
        <Code value={text} language={assetLanguage(asset)} editable onChange={setText} label="Content" />
      </div>
      <div className="row end">
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

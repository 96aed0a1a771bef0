import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useApp } from '../app/context';
import { api } from '../lib/api';
import {
  assetApplication,
  assetLanguage,
  assetName,
  languageName,
  LANGUAGES,
  relativeTime,
  secretNames,
} from '../lib/format';
import type { Asset, StoreLabel } from '../lib/types';
import { NewSnippet } from './NewSnippet';
import { SnippetView } from './SnippetView';
import { useSnippets } from './useSnippets';
import { useStores } from './useStores';

const ROW = 60;

/** Drive (SAVED_MATERIALS): every snippet, newest first, searchable and filterable, and one snippet's view. */
export function Drive() {
  const { state, update } = useApp();
  const [creating, setCreating] = useState(false);
  const query = state.query ?? '';
  const { team, stores, current } = useStores();
  const everywhere = team && state.everywhere === true;
  const list = useSnippets(query, state, { space: state.space, everywhere });
  const applications = useQuery({ queryKey: ['applications'], queryFn: api.applications, staleTime: 60_000 });
  const tags = useMemo(() => {
    const counts = new Map<string, number>();
    for (const asset of list.items)
      for (const t of asset.tags?.iterable ?? []) counts.set(t.text, (counts.get(t.text) ?? 0) + 1);
    if (state.tag) counts.set(state.tag, counts.get(state.tag) ?? 1);
    return [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 100)
      .map(([t]) => t);
  }, [list.items, state.tag]);
  const open = state.snippet;
  // Opening a snippet (a click, a deep link, a restored state) ends the paste form.
  const creatingNow = creating && !open;
  const detail = creatingNow || Boolean(open);

  return (
    <div className={`split ${detail ? 'has-detail' : ''}`}>
      <section className="pane list-pane" aria-label="Snippets">
        <div className="toolbar">
          <input
            className="search"
            type="search"
            aria-label="Search"
            placeholder="Search snippets"
            value={query}
            onChange={(e) => update({ query: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown')
                (document.querySelector('.list[role="listbox"]') as HTMLElement | null)?.focus();
            }}
          />
          {current.role !== 'reader' && (
            <button
              type="button"
              className="primary"
              onClick={() => {
                setCreating(true);
                update({ snippet: undefined });
              }}
            >
              New
            </button>
          )}
        </div>
        {team && (
          <div className="filters spaces">
            <select
              aria-label="Library"
              value={current.space ? current.name : ''}
              onChange={(e) => update({ space: e.target.value || undefined, snippet: undefined })}
            >
              {stores.map((s) => (
                <option key={s.space ?? ''} value={s.space ? s.name : ''}>
                  {s.space ? `${s.name}${s.role === 'reader' ? ' (read only)' : ''}` : 'My snippets'}
                </option>
              ))}
            </select>
            <label className="check">
              <input
                type="checkbox"
                checked={everywhere}
                onChange={(e) => update({ everywhere: e.target.checked || undefined })}
              />
              Search all my spaces
            </label>
          </div>
        )}
        <div className="filters">
          <select
            aria-label="Language"
            value={state.language ?? ''}
            onChange={(e) => update({ language: e.target.value || undefined })}
          >
            <option value="">All languages</option>
            {Object.entries(LANGUAGES)
              .filter(([k]) => k !== 'text' && k !== 'yml')
              .sort((a, b) => a[1].localeCompare(b[1]))
              .map(([k, name]) => (
                <option key={k} value={k}>
                  {name}
                </option>
              ))}
          </select>
          <select
            aria-label="Tag"
            value={state.tag ?? ''}
            onChange={(e) => update({ tag: e.target.value || undefined })}
          >
            <option value="">All tags</option>
            {tags.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <select
            aria-label="Application"
            value={state.application ?? ''}
            onChange={(e) => update({ application: e.target.value || undefined })}
          >
            <option value="">All apps</option>
            {[
              ...new Set([
                ...(applications.data ?? []).map((a) => a.name),
                ...list.items.map(assetApplication).filter((n): n is string => Boolean(n)),
                ...(state.application ? [state.application] : []),
              ]),
            ]
              .sort()
              .map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
          </select>
        </div>
        <SnippetList
          items={list.items}
          loading={list.loading}
          error={list.error}
          hasMore={list.hasMore}
          loadMore={list.loadMore}
          searching={list.searching}
          selected={open}
          labels={list.labels}
          current={current}
          onOpen={(id) => {
            setCreating(false);
            // A result from another store opens there (Drive then shows that store).
            const from = list.labels.get(id);
            if (from && from.space !== current.space)
              update({ snippet: id, space: from.space ? from.name : undefined });
            else update({ snippet: id });
          }}
        />
      </section>
      {!detail && (
        <section className="pane detail-pane placeholder" aria-label="Snippet">
          <div className="empty">
            <p className="empty-title">Pick a snippet</p>
            <p className="muted">
              Its code, tags, links and activity show here. Arrow keys move through the list; Enter opens.
            </p>
          </div>
        </section>
      )}
      {detail && (
        <section className="pane detail-pane" aria-label={creatingNow ? 'New snippet' : 'Snippet'}>
          {creatingNow ? (
            <NewSnippet
              onCancel={() => setCreating(false)}
              onSaved={(asset) => {
                setCreating(false);
                update({ snippet: asset.id, query: '', language: undefined, tag: undefined, application: undefined });
              }}
            />
          ) : (
            <SnippetView key={open} id={open!} onClose={() => update({ snippet: undefined })} />
          )}
        </section>
      )}
    </div>
  );
}

interface ListProps {
  items: Asset[];
  loading: boolean;
  error: Error | null;
  hasMore: boolean;
  loadMore: () => void;
  searching: boolean;
  selected?: string;
  labels: Map<string, StoreLabel>;
  current: StoreLabel;
  onOpen: (id: string) => void;
}

function SnippetList({
  items,
  loading,
  error,
  hasMore,
  loadMore,
  searching,
  selected,
  labels,
  current,
  onOpen,
}: ListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  // TanStack Virtual's functions are not memoizable (React Compiler skips this component, which is what it should do).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 8,
    // The first render already shows rows (before the list's element has been measured).
    initialRect: { width: 380, height: typeof window === 'undefined' ? 800 : window.innerHeight },
  });
  const rows = virtual.getVirtualItems();
  const last = rows[rows.length - 1]?.index ?? 0;

  useEffect(() => {
    if (hasMore && last >= items.length - 20) loadMore();
  }, [last, items.length, hasMore, loadMore]);
  useEffect(() => {
    setActive((a) => Math.min(a, Math.max(0, items.length - 1)));
  }, [items.length]);

  if (error) return <p className="notice error">{error.message}</p>;
  if (loading) return <p className="notice muted">Loading snippets…</p>;
  if (!items.length) {
    return (
      <div className="empty">
        {searching ? (
          <p>No snippet matches.</p>
        ) : (
          <>
            <p className="empty-title">No snippets yet</p>
            <p className="muted">Save one with New (paste your code), from your editor, or with the Pieces CLI.</p>
          </>
        )}
      </div>
    );
  }
  const move = (to: number) => {
    const index = Math.max(0, Math.min(items.length - 1, to));
    setActive(index);
    virtual.scrollToIndex(index);
  };
  return (
    <div
      ref={scroller}
      className="list"
      role="listbox"
      tabIndex={0}
      aria-label={`${items.length}${hasMore ? '+' : ''} snippets`}
      aria-activedescendant={items[active] ? `row-${items[active].id}` : undefined}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') move(active + 1);
        else if (e.key === 'ArrowUp') move(active - 1);
        else if (e.key === 'Home') move(0);
        else if (e.key === 'End') move(items.length - 1);
        else if (e.key === 'PageDown') move(active + 10);
        else if (e.key === 'PageUp') move(active - 10);
        else if (e.key === 'Enter' && items[active]) onOpen(items[active].id);
        else return;
        e.preventDefault();
      }}
    >
      <div className="list-inner" style={{ height: virtual.getTotalSize() }}>
        {rows.map((row) => {
          const asset = items[row.index];
          const tags = asset.tags?.iterable ?? [];
          const app = assetApplication(asset);
          const from = labels.get(asset.id);
          const elsewhere =
            from && from.space !== current.space ? (from.space ? `in ${from.name}` : 'in my snippets') : null;
          return (
            <div
              key={asset.id}
              id={`row-${asset.id}`}
              role="option"
              aria-selected={asset.id === selected}
              className={`row ${row.index === active ? 'active' : ''} ${asset.id === selected ? 'selected' : ''}`}
              style={{ transform: `translateY(${row.start}px)`, height: ROW }}
              onClick={() => {
                setActive(row.index);
                onOpen(asset.id);
              }}
            >
              <div className="row-title">
                <span className="row-name">{assetName(asset)}</span>
                <span className="row-time">{relativeTime(asset.created.value)}</span>
              </div>
              <div className="row-meta">
                <span className="lang">{languageName(assetLanguage(asset))}</span>
                {elsewhere && <span className="chip small space-chip">{elsewhere}</span>}
                {secretNames(asset).length > 0 && (
                  <span
                    className="chip small secret"
                    title={`Holds a secret: ${secretNames(asset).join(', ')}`}
                    aria-label="Holds a secret"
                  >
                    Secret
                  </span>
                )}
                {tags.slice(0, 3).map((t) => (
                  <span key={t.id} className="chip small">
                    {t.text}
                  </span>
                ))}
                {app && <span className="row-app">{app}</span>}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../lib/api';
import { FIRST_PAGE, takeFirstPage } from '../prefetch';
import { assetApplication } from '../lib/format';
import type { Asset, StoreLabel } from '../lib/types';

/** The first page fills a screen (and comes fast: src/prefetch.ts asks for it at start); the next ones are larger. */
const PAGE = 200;
/** Typing pauses this long before a search is sent; a newer query aborts the ones still under way. */
const DEBOUNCE_MS = 25;

export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Drive's listing query of one store (the own store's first page may already be on its way: src/prefetch.ts). */
const snippetPages = (space: string | undefined) => ({
  queryKey: ['assets', space ?? ''],
  queryFn: ({ pageParam, signal }: { pageParam: string | null; signal?: AbortSignal }) =>
    (pageParam === null && !space && takeFirstPage()) ||
    api.assetsPage(pageParam, pageParam ? PAGE : FIRST_PAGE, signal),
  initialPageParam: null as string | null,
  getNextPageParam: (last: { next_cursor: string | null }) => last.next_cursor,
});

export interface SnippetList {
  items: Asset[];
  loading: boolean;
  error: Error | null;
  /** More pages to load (the listing); false for search results. */
  hasMore: boolean;
  loadMore: () => void;
  searching: boolean;
  /** Where each result comes from, in a search across stores. */
  labels: Map<string, StoreLabel>;
}

/**
 * Drive's list: the store page by page, newest first (`GET /assets?limit=&cursor=`), or, with a
 * query or a language / tag filter, the search's results (`POST /assets/search`, the same
 * typo-tolerant search as `/assets/search`). The application filter applies to what is loaded.
 */
export function useSnippets(
  query: string,
  filters: { language?: string; tag?: string; application?: string },
  where: { space?: string; everywhere: boolean },
): SnippetList {
  const { language, tag, application } = filters;
  const q = useDebounced(query.trim(), DEBOUNCE_MS);
  const searching = Boolean(q || language || tag);
  const client = useQueryClient();
  const pages = useInfiniteQuery({ ...snippetPages(where.space), enabled: !searching });
  useEffect(() => {
    void client.cancelQueries({ queryKey: ['search'], predicate: (query) => query.queryKey[1] !== q });
  }, [client, q]);
  const search = useQuery({
    queryKey: ['search', q, language ?? '', tag ?? '', where.space ?? '', where.everywhere],
    queryFn: ({ signal }) => api.search(q, { language, tag }, signal, where.everywhere),
    enabled: searching,
    placeholderData: keepPreviousData,
  });
  const all = useMemo(
    () =>
      searching
        ? (search.data ?? []).map((hit) => hit.asset).filter((a): a is Asset => Boolean(a))
        : (pages.data?.pages ?? []).flatMap((p) => p.iterable),
    [searching, search.data, pages.data],
  );
  const items = useMemo(
    () => (application ? all.filter((a) => assetApplication(a) === application) : all),
    [all, application],
  );
  const labels = useMemo(
    () =>
      new Map(
        searching
          ? (search.data ?? []).flatMap((hit) => (hit.space ? [[hit.identifier, hit.space] as const] : []))
          : [],
      ),
    [searching, search.data],
  );
  return {
    items,
    loading: searching ? search.isPending : pages.isPending,
    error: (searching ? search.error : pages.error) as Error | null,
    hasMore: !searching && Boolean(pages.hasNextPage),
    loadMore: () => {
      if (!searching && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
    },
    searching,
    labels,
  };
}

import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../lib/api';
import { assetApplication } from '../lib/format';
import type { Asset } from '../lib/types';

const PAGE = 100;
/** Typing pauses this long before a search is sent (the results come well within 150 ms of the last key). */
const DEBOUNCE_MS = 40;

export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export interface SnippetList {
  items: Asset[];
  loading: boolean;
  error: Error | null;
  /** More pages to load (the listing); false for search results. */
  hasMore: boolean;
  loadMore: () => void;
  searching: boolean;
}

/**
 * Drive's list: the store page by page, newest first (`GET /assets?limit=&cursor=`), or, with a
 * query or a language / tag filter, the search's results (`POST /assets/search`, the same
 * typo-tolerant search as `/assets/search`). The application filter applies to what is loaded.
 */
export function useSnippets(query: string, language: string | undefined, tag: string | undefined, application: string | undefined): SnippetList {
  const q = useDebounced(query.trim(), DEBOUNCE_MS);
  const searching = Boolean(q || language || tag);
  const pages = useInfiniteQuery({
    queryKey: ['assets'],
    queryFn: ({ pageParam, signal }) => api.assetsPage(pageParam, PAGE, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: !searching,
  });
  const search = useQuery({
    queryKey: ['search', q, language ?? '', tag ?? ''],
    queryFn: ({ signal }) => api.search(q, { language, tag }, signal),
    enabled: searching,
    placeholderData: keepPreviousData,
  });
  const all = useMemo(
    () =>
      searching ? (search.data ?? []).map((hit) => hit.asset).filter((a): a is Asset => Boolean(a)) : (pages.data?.pages ?? []).flatMap((p) => p.iterable),
    [searching, search.data, pages.data],
  );
  const items = useMemo(() => (application ? all.filter((a) => assetApplication(a) === application) : all), [all, application]);
  return {
    items,
    loading: searching ? search.isPending : pages.isPending,
    error: (searching ? search.error : pages.error) as Error | null,
    hasMore: !searching && Boolean(pages.hasNextPage),
    loadMore: () => {
      if (!searching && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
    },
    searching,
  };
}

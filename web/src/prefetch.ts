/**
 * Imported first by main.tsx, so it runs before React and the app are evaluated: when the page
 * opens on Drive's unfiltered list, the first page of snippets is asked for at once (Drive must
 * show snippets within a second of the load), and Drive's listing query takes this answer.
 */
import { api, type Page } from './lib/api';
import { parseState, stateFromHash } from './lib/state';
import type { Asset } from './lib/types';

export const FIRST_PAGE = 40;

let first: Promise<Page<Asset>> | null = null;

function opensOnTheList(): boolean {
  const view = document.querySelector<HTMLMetaElement>('meta[name="trove-view"]')?.content ?? 'app';
  let saved: string | null = null;
  try {
    saved =
      view === 'app'
        ? sessionStorage.getItem('trove.state.app')
        : (new URLSearchParams(location.search).get('state') ?? sessionStorage.getItem(`trove.state.${view}`));
  } catch {
    /* storage disabled */
  }
  const state = parseState(saved, 'drive');
  const opening = view === 'app' ? (stateFromHash(location.hash)?.view ?? state?.view ?? 'drive') : view;
  return opening === 'drive' && !state?.query && !state?.language && !state?.tag && !state?.space;
}

if (opensOnTheList()) {
  first = api.assetsPage(null, FIRST_PAGE);
  first.catch(() => undefined); // the listing query reports it
}

/** The page asked for at start, once; null afterwards (refetches ask again). */
export function takeFirstPage(): Promise<Page<Asset>> | null {
  const taken = first;
  first = null;
  return taken;
}

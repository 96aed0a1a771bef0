/**
 * The app's own state that survives a reload: which view, which snippet or chat, the search and
 * filters, the chosen model. In an applet it is sent to the host (`setStateReq`, data
 * `{state: <JSON text>}`) when the host can persist it, and comes back in the `state` URL
 * parameter (or a `getStateReq` answer); in a browser tab, the URL's hash holds the place and
 * sessionStorage the rest.
 */
export type View = 'drive' | 'copilot' | 'settings';

export interface AppState {
  view: View;
  snippet?: string;
  chat?: string;
  query?: string;
  language?: string;
  tag?: string;
  application?: string;
  model?: string;
  /** On a team deployment: the shared space Drive shows (its name); none for the user's own snippets. */
  space?: string;
  /** Drive's searches look in the user's own store and every space they belong to. */
  everywhere?: boolean;
}

const VIEWS: View[] = ['drive', 'copilot', 'settings'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX = 1000;

/** Keeps only known fields of the right shapes: the state comes from outside. */
export function sanitizeState(value: unknown, fallbackView: View): AppState {
  const input = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.length <= MAX ? v : undefined);
  const id = (v: unknown) => (typeof v === 'string' && UUID.test(v) ? v.toLowerCase() : undefined);
  const state: AppState = { view: VIEWS.includes(input.view as View) ? (input.view as View) : fallbackView };
  const entries: Array<[keyof AppState, string | undefined]> = [
    ['snippet', id(input.snippet)],
    ['chat', id(input.chat)],
    ['query', text(input.query)],
    ['language', text(input.language)],
    ['tag', text(input.tag)],
    ['application', text(input.application)],
    ['model', text(input.model)],
    ['space', text(input.space)],
  ];
  for (const [key, v] of entries) if (v !== undefined) (state as unknown as Record<string, string>)[key] = v;
  if (input.everywhere === true) state.everywhere = true;
  return state;
}

/** Parses a `state` parameter or host answer: JSON text of an AppState. */
export function parseState(text: unknown, fallbackView: View): AppState | null {
  if (typeof text !== 'string' || !text) return null;
  try {
    return sanitizeState(JSON.parse(text), fallbackView);
  } catch {
    return null;
  }
}

export function serializeState(state: AppState): string {
  return JSON.stringify(state);
}

/** `#/drive`, `#/drive/<id>`, `#/copilot/<id>`, `#/settings`: the browser app's deep links. */
export function stateFromHash(hash: string): Partial<AppState> | null {
  const match = /^#\/(drive|copilot|settings)(?:\/([0-9a-fA-F-]{36}))?\/?$/.exec(hash);
  if (!match) return null;
  const view = match[1] as View;
  const id = match[2] && UUID.test(match[2]) ? match[2].toLowerCase() : undefined;
  return {
    view,
    ...(id && view === 'drive' ? { snippet: id } : {}),
    ...(id && view === 'copilot' ? { chat: id } : {}),
  };
}

export function hashOf(state: AppState): string {
  if (state.view === 'drive' && state.snippet) return `#/drive/${state.snippet}`;
  if (state.view === 'copilot' && state.chat) return `#/copilot/${state.chat}`;
  return `#/${state.view}`;
}

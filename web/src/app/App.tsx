import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { authSession, onUnauthorized, setApiKey, setSpace, signOut, type AuthSession } from '../lib/api';
import type { Host } from '../lib/host';
import {
  hashOf,
  parseState,
  sanitizeState,
  serializeState,
  stateFromHash,
  type AppState,
  type View,
} from '../lib/state';
import type { Application } from '../lib/types';
import { Drive } from '../views/Drive';
import { AppContext, type AppContextValue, type Role } from './context';
import { KeyPrompt } from './KeyPrompt';
import { useLiveUpdates } from './live';

interface Props {
  role: Role;
  host: Host;
  application: Application | null;
  initialState: string | null;
  subscribeTheme: (listener: () => void) => () => void;
}

const STORAGE = (role: Role) => `trove.state.${role}`;

// Drive is in the first chunk (it must show snippets within a second); Copilot (Markdown, the
// sanitizer) and Settings load when first opened.
const Copilot = lazy(() => import('../views/Copilot').then((m) => ({ default: m.Copilot })));
const Settings = lazy(() => import('../views/Settings').then((m) => ({ default: m.Settings })));

function stored(role: Role, view: View): AppState | null {
  try {
    return parseState(sessionStorage.getItem(STORAGE(role)), view);
  } catch {
    return null;
  }
}

function initial(role: Role, param: string | null): AppState {
  if (role === 'app') {
    const base = stored(role, 'drive') ?? { view: 'drive' as View };
    const linked = stateFromHash(location.hash);
    return linked ? sanitizeState({ ...base, snippet: undefined, chat: undefined, ...linked }, 'drive') : base;
  }
  const view = role as View;
  const fromHost = parseState(param, view);
  return { ...(fromHost ?? stored(role, view) ?? { view }), view };
}

/** Copies text without a host: the async clipboard where the page may use it, else a selected textarea. */
async function browserCopy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('the browser refused to copy');
  }
}

export function App({ role, host, application, initialState, subscribeTheme }: Props) {
  const [state, setState] = useState<AppState>(() => initial(role, initialState));
  const [toasts, setToasts] = useState<Array<{ id: number; message: string; kind: 'info' | 'error' }>>([]);
  const [needKey, setNeedKey] = useState(false);
  // Sign-in for people (OpenID Connect), when this Trove offers it: GET /auth/session.
  const [session, setSession] = useState<AuthSession | null>(null);
  const dark = useSyncExternalStore(subscribeTheme, () => document.documentElement.dataset.theme === 'dark');
  const client = useQueryClient();
  const toastId = useRef(0);

  const update = useCallback(
    (patch: Partial<AppState>) => setState((s) => sanitizeState({ ...s, ...patch }, s.view)),
    [],
  );
  // The space every request of this render's queries carries: set before the views below render and ask.
  setSpace(state.space ?? null);

  const notify = useCallback((message: string, kind: 'info' | 'error' = 'info') => {
    const id = ++toastId.current;
    setToasts((t) => [...t.slice(-2), { id, message, kind }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), kind === 'error' ? 6000 : 2500);
  }, []);

  const copy = useCallback(
    async (text: string) => {
      if (host.can('copyToClipboard')) host.send('copyToClipboard', text);
      else await browserCopy(text);
    },
    [host],
  );

  // The state survives a reload: sessionStorage always, the host when it persists state, the hash in a tab.
  useEffect(() => {
    try {
      sessionStorage.setItem(STORAGE(role), serializeState(state));
    } catch {
      /* storage disabled */
    }
    if (role === 'app') {
      const hash = hashOf(state);
      if (location.hash !== hash) history.pushState(null, '', hash);
    }
    if (host.can('persistState')) {
      const timer = setTimeout(() => host.send('setStateReq', { state: serializeState(state) }), 300);
      return () => clearTimeout(timer);
    }
  }, [state, role, host]);

  // Back and forward, and links opened in this tab (#/drive/<id>, #/copilot/<id>).
  useEffect(() => {
    if (role !== 'app') return;
    const onHash = () => {
      const linked = stateFromHash(location.hash);
      if (linked) setState((s) => sanitizeState({ ...s, snippet: undefined, chat: undefined, ...linked }, 'drive'));
    };
    window.addEventListener('popstate', onHash);
    window.addEventListener('hashchange', onHash);
    return () => {
      window.removeEventListener('popstate', onHash);
      window.removeEventListener('hashchange', onHash);
    };
  }, [role]);

  // A host that keeps the state answers getStateReq when the URL carried none.
  useEffect(() => {
    if (!host.embedded || initialState) return;
    host
      .request<{ state?: unknown }>('getStateReq')
      .then((answer) => {
        const restored = parseState(answer?.state, role as View);
        if (restored) setState({ ...restored, view: role as View });
      })
      .catch(() => undefined);
  }, [host, initialState, role]);

  // The host's requests of the applet: the state (persistState carries it back), a conversation to open, a question.
  useEffect(() => {
    const off = [
      host.on('persistState', (data) => {
        const restored =
          typeof data === 'string' ? parseState(data, state.view) : data ? sanitizeState(data, state.view) : null;
        if (restored && role !== 'app') setState({ ...restored, view: role as View });
      }),
      host.on('focusCopilotConversation', (data) => {
        const id = (data as { id?: string } | null)?.id;
        if (typeof id === 'string') update({ view: 'copilot', chat: id });
      }),
    ];
    return () => off.forEach((f) => f());
  }, [host, role, state.view, update]);

  useEffect(() => onUnauthorized(() => setNeedKey(true)), []);
  useLiveUpdates(client);

  useEffect(() => {
    if (role !== 'app') return;
    void authSession().then((found) => {
      setSession(found);
      if (found?.signedIn) {
        setNeedKey(false);
        void client.invalidateQueries();
      }
    });
  }, [role, client]);

  const leave = useCallback(async () => {
    try {
      await signOut();
    } catch (error) {
      notify((error as Error).message, 'error');
      return;
    }
    setSession(await authSession());
    client.clear();
    setNeedKey(true);
  }, [client, notify]);

  const value: AppContextValue = useMemo(
    () => ({ role, host, application, state, update, dark, notify, copy }),
    [role, host, application, state, update, dark, notify, copy],
  );

  const view = role === 'app' ? state.view : (role as View);
  return (
    <AppContext.Provider value={value}>
      <div className={`shell role-${role}`}>
        {role === 'app' && (
          <header className="topbar">
            <a className="brand" href="#/drive">
              <span className="brand-mark" aria-hidden="true">
                T
              </span>
              Trove
            </a>
            <nav aria-label="Views">
              {(['drive', 'copilot', 'settings'] as View[]).map((v) => (
                <a
                  key={v}
                  href={`#/${v}`}
                  className="nav-link"
                  aria-current={view === v ? 'page' : undefined}
                  onClick={() => update({ view: v })}
                >
                  {v === 'drive' ? 'Drive' : v === 'copilot' ? 'Copilot' : 'Settings'}
                </a>
              ))}
            </nav>
            {session?.signedIn && session.user && (
              <div className="account">
                <span className="account-name" data-testid="signed-in-user">
                  {session.user.name}
                </span>
                <button type="button" onClick={() => void leave()}>
                  Sign out
                </button>
              </div>
            )}
          </header>
        )}
        <main className="view" id="main">
          {view === 'drive' && <Drive />}
          <Suspense fallback={<p className="notice muted">Loading…</p>}>
            {view === 'copilot' && <Copilot />}
            {view === 'settings' && <Settings />}
          </Suspense>
        </main>
        <div className="toasts" role="status" aria-live="polite">
          {toasts.map((t) => (
            <div key={t.id} className={`toast toast-${t.kind}`}>
              {t.message}
            </div>
          ))}
        </div>
        {needKey && (
          <KeyPrompt
            signIn={session?.signIn && !session.signedIn ? (session.issuer ?? 'your identity provider') : null}
            onKey={(key) => {
              setApiKey(key);
              setNeedKey(false);
              void client.invalidateQueries();
            }}
          />
        )}
      </div>
    </AppContext.Provider>
  );
}

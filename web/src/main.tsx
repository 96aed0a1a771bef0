import './prefetch';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import type { Role } from './app/context';
import { Host, parseCapabilities } from './lib/host';
import { applyTheme, parseTheme, type HostTheme } from './lib/theme';
import type { Application } from './lib/types';
import './styles.css';

const ROLES: Role[] = ['app', 'drive', 'copilot', 'settings'];
const meta = document.querySelector<HTMLMetaElement>('meta[name="trove-view"]')?.content as Role | undefined;
const role: Role = meta && ROLES.includes(meta) ? meta : 'app';
const params = new URLSearchParams(location.search);
const embedded = window.parent !== window;
const host = new Host(window, { capabilities: parseCapabilities(params.get('capabilities')), embedded });

let theme: HostTheme | null = parseTheme(params.get('theme'));
applyTheme(theme);
const themeListeners = new Set<() => void>();
host.on('setTheme', (data) => {
  if (typeof data === 'object' && data !== null) theme = data as HostTheme;
  applyTheme(theme);
  for (const listener of themeListeners) listener();
});
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
  applyTheme(theme);
  for (const listener of themeListeners) listener();
});

function parseApplication(text: string | null): Application | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Application;
    return typeof value?.id === 'string' && typeof value?.name === 'string' ? value : null;
  } catch {
    return null;
  }
}

// The first message: the plugin shows nothing until it arrives.
host.send('loaded');

const queries = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (count, error) => count < 2 && (error as { status?: number }).status !== 401,
      refetchOnWindowFocus: false,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <App
        role={role}
        host={host}
        application={parseApplication(params.get('application'))}
        initialState={params.get('state')}
        subscribeTheme={(listener) => {
          themeListeners.add(listener);
          return () => themeListeners.delete(listener);
        }}
      />
    </QueryClientProvider>
  </StrictMode>,
);

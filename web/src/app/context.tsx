import { createContext, useContext } from 'react';
import type { Host } from '../lib/host';
import type { AppState } from '../lib/state';
import type { Application } from '../lib/types';

/** Which page this is: the browser app (all three views) or one applet. */
export type Role = 'app' | 'drive' | 'copilot' | 'settings';

export interface AppContextValue {
  role: Role;
  host: Host;
  /** The host's Application (the `application` URL parameter), used as the source of saved snippets. */
  application: Application | null;
  state: AppState;
  update: (patch: Partial<AppState>) => void;
  dark: boolean;
  notify: (message: string, kind?: 'info' | 'error') => void;
  /** Copies text: through the host when it can, else the browser's clipboard. */
  copy: (text: string) => Promise<void>;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside the app');
  return value;
}

export function useDark(): boolean {
  return useContext(AppContext)?.dark ?? false;
}

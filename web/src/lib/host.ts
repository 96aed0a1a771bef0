/**
 * The message protocol between an applet and the editor plugin that hosts it in an iframe
 * (docs/APP.md, "How the plugins reach it"): the one place that knows the message types, the capability
 * bits and the request/response pairing. Components ask `can()` before offering an action and
 * never call postMessage themselves.
 */

/** What the host supports: the `capabilities` URL parameter, a bit mask. */
export const Capability = {
  insertAtCursor: 1,
  askCopilot: 2,
  displayNotification: 8,
  persistState: 16,
  previewAsset: 32,
  openSettings: 64,
  launchPos: 256,
  corsProxy: 1024,
  setTheme: 2048,
  copyToClipboard: 8192,
  loaded: 16384,
  focusCopilotConversation: 262144,
} as const;
export type CapabilityName = keyof typeof Capability;

/** Requests the applet sends and the type of the host's answer. */
export const RESPONSE_OF = {
  applicationReq: 'applicationRes',
  getStateReq: 'getStateRes',
  updateApplicationReq: 'updateApplicationRes',
  corsProxyReq: 'corsProxyRes',
  getRecentFilesReq: 'getRecentFilesRes',
  getWorkspacePathReq: 'getWorkspacePathRes',
  getUserPreferencesReq: 'getUserPreferencesRes',
  filterFolderReq: 'filterFolderRes',
  shareReq: 'shareRes',
} as const;
export type RequestType = keyof typeof RESPONSE_OF;

/** Messages to the host that expect no answer. */
export type OneWayType =
  | 'loaded'
  | 'insertAtCursor'
  | 'copyToClipboard'
  | 'displayNotification'
  | 'openLink'
  | 'previewAsset'
  | 'openSettings'
  | 'launchPos'
  | 'focusCopilotConversation'
  | 'setStateReq'
  | 'persistState'
  | 'track';

export interface OutgoingMessage {
  destination: 'extension';
  type: string;
  data?: unknown;
  id?: string;
}

/** A message from the host: `destination: "webview"`. */
export interface IncomingMessage {
  destination: 'webview';
  type: string;
  data?: unknown;
  id?: string;
}

export function isIncoming(value: unknown): value is IncomingMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as IncomingMessage).destination === 'webview' &&
    typeof (value as IncomingMessage).type === 'string'
  );
}

/** Parses the `capabilities` parameter: a non-negative integer, anything else means none. */
export function parseCapabilities(value: string | null): number {
  if (!value || !/^\d{1,10}$/.test(value)) return 0;
  return Number(value);
}

export function hasCapability(mask: number, name: CapabilityName): boolean {
  return (mask & Capability[name]) !== 0;
}

type Listener = (data: unknown, message: IncomingMessage) => void;

/** The minimum of `window` the host link uses (tests pass a fake). */
export interface HostWindow {
  parent: { postMessage(message: unknown, targetOrigin: string): void };
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export interface HostOptions {
  /** The `capabilities` bit mask; 0 in a plain browser tab. */
  capabilities: number;
  /** True inside an iframe (window.parent !== window). */
  embedded: boolean;
  /** How long a request waits for its answer before it fails. */
  timeoutMs?: number;
  newId?: () => string;
}

/**
 * The link to the host: `send` for one-way messages, `request` for those answered with the
 * same id, `on` for what the host sends (setTheme, focusCopilotConversation, persistState, ...).
 * Outside an iframe it sends nothing and every `can()` is false.
 */
export class Host {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly pending = new Map<
    string,
    {
      answer: string;
      resolve: (data: unknown) => void;
      reject: (error: Error) => void;
      timer: ReturnType<typeof setTimeout>;
    }
  >();
  private readonly onMessage = (event: MessageEvent): void => this.receive(event.data);
  private counter = 0;

  constructor(
    private readonly win: HostWindow,
    private readonly options: HostOptions,
  ) {
    if (options.embedded) win.addEventListener('message', this.onMessage);
  }

  get embedded(): boolean {
    return this.options.embedded;
  }

  get capabilities(): number {
    return this.options.embedded ? this.options.capabilities : 0;
  }

  can(name: CapabilityName): boolean {
    return hasCapability(this.capabilities, name);
  }

  send(type: OneWayType, data?: unknown): void {
    if (!this.options.embedded) return;
    const message: OutgoingMessage =
      data === undefined ? { destination: 'extension', type } : { destination: 'extension', type, data };
    this.win.parent.postMessage(message, '*');
  }

  request<T = unknown>(type: RequestType, data?: unknown): Promise<T> {
    if (!this.options.embedded) return Promise.reject(new Error('no host: this page is not inside an editor plugin'));
    const id = this.options.newId?.() ?? `trove-${Date.now().toString(36)}-${(this.counter++).toString(36)}`;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the host did not answer ${type}`));
      }, this.options.timeoutMs ?? 5000);
      this.pending.set(id, { answer: RESPONSE_OF[type], resolve: resolve as (data: unknown) => void, reject, timer });
      const message: OutgoingMessage = { destination: 'extension', type, id, ...(data === undefined ? {} : { data }) };
      this.win.parent.postMessage(message, '*');
    });
  }

  on(type: string, listener: Listener): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  dispose(): void {
    this.win.removeEventListener('message', this.onMessage);
    for (const { timer, reject } of this.pending.values()) {
      clearTimeout(timer);
      reject(new Error('closed'));
    }
    this.pending.clear();
  }

  /** A message from the host: the answer to a pending request (by id), else for the listeners of its type. */
  receive(value: unknown): void {
    if (!isIncoming(value)) return;
    if (value.id !== undefined && this.pending.has(value.id)) {
      const waiting = this.pending.get(value.id)!;
      this.pending.delete(value.id);
      clearTimeout(waiting.timer);
      // A host that fails a request answers with the request's own type and the error as data.
      if (value.type === waiting.answer) waiting.resolve(value.data);
      else
        waiting.reject(
          new Error(typeof value.data === 'string' ? value.data : `the host could not answer ${value.type}`),
        );
      return;
    }
    for (const listener of this.listeners.get(value.type) ?? []) listener(value.data, value);
  }
}

/**
 * What the code that started an application lets it do to itself, given to each app it creates:
 * startServer (`npm start`, the e2e tests) lets it restart in-process and shut the process down;
 * an app created with createApp alone (benchmarks, scripts) can do neither.
 */
/** What one app holds and has waiting, summed into the process's gauges (GET /metrics). */
export interface StoreState {
  readonly open: boolean;
  subscribers(): Array<[string, number]>;
  readonly mcpSessions: number;
  queues(): Array<[string, number]>;
}

export class AppHost {
  /**
   * The apps of this process whose state the metrics show: this one, and on a team deployment
   * the stores' apps the front opened (they are given the process's app's census).
   */
  readonly census: Set<StoreState>;

  /** Set once this app is being closed (for a fresh one, or for good): health answers 503 from then on. */
  private requested: 'restart' | 'terminate' | null = null;

  /**
   * `restart`: closes this app and starts a fresh one (startServer's); `terminate`: closes it for
   * good and ends the process the way SIGINT does. null when nobody can.
   */
  constructor(
    private readonly restartApp: (() => void) | null,
    private readonly terminateApp: (() => void) | null = null,
    census?: Set<StoreState>,
  ) {
    this.census = census ?? new Set();
  }

  get canRestart(): boolean {
    return this.restartApp !== null;
  }

  get canTerminate(): boolean {
    return this.terminateApp !== null;
  }

  /** This app is being closed (a restart or a shutdown is under way). */
  get restarting(): boolean {
    return this.requested !== null;
  }

  /** Starts replacing this app by a fresh one. Later calls (a second GET /os/restart) join that restart. */
  restart(): void {
    if (!this.restartApp) throw new Error('this app was created without a restart handler');
    if (this.requested) return;
    this.requested = 'restart';
    this.restartApp();
  }

  /** Starts shutting the process down. Later calls join it; a shutdown wins over a restart requested before. */
  terminate(): void {
    if (!this.terminateApp) throw new Error('this app was created without a terminate handler');
    if (this.requested === 'terminate') return;
    this.requested = 'terminate';
    this.terminateApp();
  }
}

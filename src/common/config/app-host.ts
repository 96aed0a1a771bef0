/**
 * What the code that started an application lets it do to itself, given to each app it creates:
 * startServer (`npm start`, the e2e tests) lets it restart in-process; an app created with
 * createApp alone (benchmarks, scripts) cannot.
 */
export class AppHost {
  /** Set once this app is being closed for a fresh one: health answers 503 from then on. */
  private requested = false;

  /** `restart`: closes this app and starts a fresh one (startServer's); null when nobody can. */
  constructor(private readonly restartApp: (() => void) | null) {}

  get canRestart(): boolean {
    return this.restartApp !== null;
  }

  get restarting(): boolean {
    return this.requested;
  }

  /** Starts replacing this app by a fresh one. Later calls (a second GET /os/restart) join that restart. */
  restart(): void {
    if (!this.restartApp) throw new Error('this app was created without a restart handler');
    if (this.requested) return;
    this.requested = true;
    this.restartApp();
  }
}

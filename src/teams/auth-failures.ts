import { AuditLog } from './audit-log';

/** Failed authentications of one address are written together this often (the first at once). */
const FAILURES_MS = 10_000;

/**
 * Failed authentications (an unknown token, no token) in the audit log, one entry per client
 * address every FAILURES_MS (the first at once), with how many more there were: a flood of bad
 * tokens cannot flood the log.
 */
export class AuthFailures {
  /** Failures not yet written, by client address. */
  private readonly failures = new Map<string, { count: number; since: number; route: string; method: string | null }>();

  constructor(private readonly audit: AuditLog) {}

  /** One failed authentication from `client`. */
  failed(client: string, method: string | null, route: string): void {
    const known = this.failures.get(client);
    if (known) {
      known.count++;
      return;
    }
    this.audit.append({
      userId: null,
      userName: null,
      action: 'auth.failed',
      method,
      route,
      record: null,
      status: 401,
      client,
      store: null,
    });
    this.failures.set(client, { count: 0, since: Date.now(), route, method });
  }

  /** Writes the counts of the addresses whose FAILURES_MS have passed (`all`: of every address, at shutdown). */
  write(all: boolean): void {
    const before = Date.now() - FAILURES_MS;
    for (const [client, entry] of this.failures) {
      if (!all && entry.since > before) continue;
      this.failures.delete(client);
      if (entry.count === 0) continue;
      this.audit.append({
        userId: null,
        userName: null,
        action: 'auth.failed',
        method: entry.method,
        route: entry.route,
        record: `${entry.count} more since ${new Date(entry.since).toISOString()}`,
        status: 401,
        client,
        store: null,
      });
    }
  }
}

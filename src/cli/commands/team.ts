import { userInfo } from 'node:os';
import { AuditEntry, AuditFilter, ControlError, ControlStore, Role } from '../../teams/control-store';
import { CliError, EXIT } from '../exit-codes';
import { Output } from '../output';
import { StoreOptions, storeConfig } from '../store';

/**
 * `trove users|spaces|audit` (docs/TEAMS.md): the team directory, beside the server's stores and
 * safe while it runs (it picks changes up within a second). User and space changes are written to
 * the audit log as the operator's (`cli:<login>`).
 */
async function withControl<T>(options: StoreOptions, work: (control: ControlStore) => Promise<T>): Promise<T> {
  const control = await ControlStore.open(storeConfig(options));
  try {
    return await work(control);
  } catch (error) {
    if (error instanceof ControlError) throw new CliError(error.message);
    throw error;
  } finally {
    await control.close();
  }
}

function operator(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

function audited(control: ControlStore, action: string, record: string): Promise<void> {
  const entry: AuditEntry = {
    at: new Date().toISOString(),
    userId: null,
    userName: operator(),
    action,
    method: null,
    route: null,
    record,
    status: null,
    client: null,
    store: null,
  };
  return control.appendAudit([entry]);
}

export async function addUser(name: string, options: StoreOptions & { admin?: boolean }, out: Output): Promise<number> {
  return withControl(options, async (control) => {
    const { user, token } = await control.addUser(name, { admin: options.admin });
    await audited(control, 'user.add', user.name);
    out.line(
      `user ${user.name} added${user.admin ? ' (admin)' : ''}; store: ${user.store === '' ? "the server's existing store" : user.store}`,
    );
    out.line('their token (shown once; trove users token NAME makes a new one):');
    out.line(token);
    return EXIT.ok;
  });
}

export async function listUsers(options: StoreOptions & { json?: boolean }, out: Output): Promise<number> {
  return withControl(options, async (control) => {
    const users = await control.users();
    if (options.json) {
      out.line(
        JSON.stringify(
          users.map(({ name, admin, store, created, oidcIssuer, oidcSubject }) => ({
            name,
            admin,
            store,
            created,
            oidcIssuer,
            oidcSubject,
          })),
        ),
      );
    } else if (!users.length) {
      out.line('no users: Trove serves one local user (docs/TEAMS.md)');
    } else {
      for (const user of users)
        out.line(
          `${user.name}\t${user.admin ? 'admin' : 'user'}\t${user.store || '(existing store)'}\t${user.created}`,
        );
    }
    return EXIT.ok;
  });
}

export async function removeUser(name: string, options: StoreOptions, out: Output): Promise<number> {
  return withControl(options, async (control) => {
    const user = await control.removeUser(name);
    await audited(control, 'user.remove', user.name);
    out.line(
      `user ${user.name} removed; their token no longer works. Their store (${user.store || "the server's existing store"}) is kept.`,
    );
    return EXIT.ok;
  });
}

export async function rotateToken(name: string, options: StoreOptions, out: Output): Promise<number> {
  return withControl(options, async (control) => {
    const token = await control.rotateToken(name);
    await audited(control, 'user.token', name);
    out.line(`new token for ${name} (the old one stops working within a second):`);
    out.line(token);
    return EXIT.ok;
  });
}

export async function addSpace(name: string, options: StoreOptions, out: Output): Promise<number> {
  return withControl(options, async (control) => {
    const space = await control.addSpace(name);
    await audited(control, 'space.add', space.name);
    out.line(
      `space ${space.name} added (store ${space.store}); add members with trove spaces member ${space.name} USER --role editor`,
    );
    return EXIT.ok;
  });
}

export async function listSpaces(options: StoreOptions & { json?: boolean }, out: Output): Promise<number> {
  return withControl(options, async (control) => {
    const spaces = await control.spaces();
    if (options.json)
      out.line(JSON.stringify(spaces.map(({ name, store, created, members }) => ({ name, store, created, members }))));
    else if (!spaces.length) out.line('no spaces');
    else
      for (const space of spaces)
        out.line(`${space.name}\t${space.members.map((m) => `${m.user}:${m.role}`).join(',') || '(no members)'}`);
    return EXIT.ok;
  });
}

export async function removeSpace(name: string, options: StoreOptions, out: Output): Promise<number> {
  return withControl(options, async (control) => {
    const space = await control.removeSpace(name);
    await audited(control, 'space.remove', space.name);
    out.line(`space ${space.name} removed; its store (${space.store}) is kept`);
    return EXIT.ok;
  });
}

export async function setMember(
  space: string,
  user: string,
  options: StoreOptions & { role?: string; remove?: boolean },
  out: Output,
): Promise<number> {
  return withControl(options, async (control) => {
    if (options.remove) {
      await control.removeMember(space, user);
      await audited(control, 'space.member.remove', `${space}/${user}`);
      out.line(`${user} is no longer a member of ${space}`);
    } else {
      await control.setMember(space, user, (options.role ?? 'reader') as Role);
      await audited(control, 'space.member', `${space}/${user}:${options.role ?? 'reader'}`);
      out.line(`${user} is a${options.role === 'editor' ? 'n editor' : ' reader'} of ${space}`);
    }
    return EXIT.ok;
  });
}

/** `--since` as a time: an ISO 8601 date or time, or a duration back from now (`30m`, `12h`, `7d`). */
export function sinceTime(value: string, now = Date.now()): string {
  const duration = /^(\d+)([mhd])$/.exec(value.trim());
  if (duration)
    return new Date(
      now - Number(duration[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[duration[2] as 'm' | 'h' | 'd'],
    ).toISOString();
  const time = Date.parse(value);
  if (Number.isNaN(time))
    throw new CliError(
      `--since must be an ISO 8601 time or a duration such as 30m, 12h, 7d (got "${value}")`,
      EXIT.usage,
    );
  return new Date(time).toISOString();
}

export async function showAudit(
  options: StoreOptions & { user?: string; action?: string; since?: string; limit?: string; json?: boolean },
  out: Output,
): Promise<number> {
  const filter: AuditFilter = { user: options.user, action: options.action };
  if (options.since) filter.since = sinceTime(options.since);
  if (options.limit !== undefined) {
    if (!/^\d+$/.test(options.limit) || Number(options.limit) < 1)
      throw new CliError(`--limit must be a positive integer (got "${options.limit}")`, EXIT.usage);
    filter.limit = Number(options.limit);
  }
  return withControl(options, async (control) => {
    const entries = await control.audit(filter);
    for (const e of entries) {
      if (options.json) out.line(JSON.stringify(e));
      else
        out.line(
          [
            e.at,
            e.userName ?? '-',
            e.action,
            e.method ?? '-',
            e.route ?? '-',
            e.record ?? '-',
            e.status ?? '-',
            e.client ?? '-',
          ].join('\t'),
        );
    }
    return EXIT.ok;
  });
}

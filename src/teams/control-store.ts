import { AppConfig } from '../common/config/app-config';
import { Driver, Session, openControlDatabase } from './control-database';
import { newId, newToken, tokenDigest } from './tokens';

/** A person (or an agent's account) of a team deployment. */
export interface User {
  id: string;
  name: string;
  admin: boolean;
  /** Where the user's records live: `''` for the process's own store (adopted by the first user), else `users/<id>`. */
  store: string;
  created: string;
  /** The OpenID Connect identity signed in as this user, if any (`issuer`, `subject`). */
  oidcIssuer: string | null;
  oidcSubject: string | null;
}

/** A shared library: its own store, which its members read and its editors write. */
export interface Space {
  id: string;
  name: string;
  store: string;
  created: string;
}

export type Role = 'reader' | 'editor';

export interface Membership {
  space: Space;
  role: Role;
}

/** One line of the audit log: who did what, never content or tokens. */
export interface AuditEntry {
  at: string;
  userId: string | null;
  userName: string | null;
  /** `auth.failed`, `sign-in`, `sign-out`, `create`, `update`, `delete`, `export`, `import`, `user.add`, `space.add`, ... */
  action: string;
  method: string | null;
  route: string | null;
  record: string | null;
  status: number | null;
  client: string | null;
  /** The store the request worked in (`users/<id>`, `spaces/<id>`, `''` the process's own). */
  store: string | null;
}

export interface AuditFilter {
  user?: string;
  action?: string;
  since?: string;
  until?: string;
  limit?: number;
}

interface UserRow {
  id: string;
  name: string;
  admin: number;
  store: string;
  created: string;
  oidc_issuer: string | null;
  oidc_subject: string | null;
}

const USER_COLUMNS = 'id, name, admin, store, created, oidc_issuer, oidc_subject';

const toUser = (row: UserRow): User => ({
  id: row.id,
  name: row.name,
  admin: Number(row.admin) === 1,
  store: row.store,
  created: row.created,
  oidcIssuer: row.oidc_issuer,
  oidcSubject: row.oidc_subject,
});

/** A user or space name: what a person types in a command and reads in the audit log. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export class ControlError extends Error {}

function checkName(what: string, name: string): void {
  if (!NAME.test(name))
    throw new ControlError(
      `a ${what} name is 1-64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit (got "${name}")`,
    );
}

/**
 * The team's directory (docs/TEAMS.md): users and their hashed tokens, shared spaces and their
 * members, web sessions, and the audit log. Beside the stores, never in one: SQLite
 * `<data dir>/control.db`, PostgreSQL schema `trove_control` of the same database. The server
 * and the `trove users|spaces|audit` commands open it side by side; every change bumps
 * `meta.version`, which the server polls to pick changes up.
 */
export class ControlStore {
  private constructor(private readonly db: Driver) {}

  static async open(config: AppConfig): Promise<ControlStore> {
    return new ControlStore(await openControlDatabase(config));
  }

  close(): Promise<void> {
    return this.db.close();
  }

  private get p(): string {
    return this.db.p;
  }

  /** Grows with every change of users, tokens, spaces or members. */
  async version(): Promise<number> {
    const [row] = await this.db.all<{ value: string }>(`SELECT value FROM ${this.p}meta WHERE key = 'version'`);
    return Number(row?.value ?? 0);
  }

  private bump(session: Session): Promise<void> {
    const cast =
      this.db.dialect === 'sqlite'
        ? 'CAST(CAST(value AS INTEGER) + 1 AS TEXT)'
        : 'CAST(CAST(value AS BIGINT) + 1 AS TEXT)';
    return session.run(`UPDATE ${this.p}meta SET value = ${cast} WHERE key = 'version'`);
  }

  async users(): Promise<User[]> {
    return (await this.db.all<UserRow>(`SELECT ${USER_COLUMNS} FROM ${this.p}users ORDER BY name`)).map(toUser);
  }

  async user(name: string): Promise<User | null> {
    const [row] = await this.db.all<UserRow>(`SELECT ${USER_COLUMNS} FROM ${this.p}users WHERE name = ?`, [name]);
    return row ? toUser(row) : null;
  }

  /** Every user by the digest of their token (what the server looks a request's token up in). */
  async tokenDigests(): Promise<Map<string, User>> {
    const rows = await this.db.all<UserRow & { token_hash: string }>(
      `SELECT ${USER_COLUMNS}, token_hash FROM ${this.p}users WHERE token_hash IS NOT NULL`,
    );
    return new Map(rows.map((row) => [row.token_hash, toUser(row)]));
  }

  /**
   * A new user and their first token (returned once, stored as its SHA-256 digest). The first
   * user of a deployment adopts the process's own store, so what was saved before users existed
   * stays reachable (by them); every later user gets a store of their own.
   */
  async addUser(
    name: string,
    options: { admin?: boolean; oidcIssuer?: string; oidcSubject?: string } = {},
  ): Promise<{ user: User; token: string }> {
    checkName('user', name);
    const token = newToken();
    const id = newId();
    const created = new Date().toISOString();
    return this.db.transaction(async (session) => {
      const [taken] = await session.all(`SELECT 1 AS x FROM ${this.p}users WHERE name = ?`, [name]);
      if (taken) throw new ControlError(`a user named "${name}" exists`);
      const [any] = await session.all(`SELECT 1 AS x FROM ${this.p}users WHERE store = ''`);
      const store = any ? `users/${id}` : '';
      await session.run(
        `INSERT INTO ${this.p}users (id, name, admin, store, token_hash, token_created, created, oidc_issuer, oidc_subject) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          name,
          options.admin ? 1 : 0,
          store,
          tokenDigest(token),
          created,
          created,
          options.oidcIssuer ?? null,
          options.oidcSubject ?? null,
        ],
      );
      await this.bump(session);
      return {
        user: {
          id,
          name,
          admin: Boolean(options.admin),
          store,
          created,
          oidcIssuer: options.oidcIssuer ?? null,
          oidcSubject: options.oidcSubject ?? null,
        },
        token,
      };
    });
  }

  /** Replaces the user's token: the old one stops working at the server's next poll (about a second). */
  async rotateToken(name: string): Promise<string> {
    const token = newToken();
    await this.db.transaction(async (session) => {
      const [row] = await session.all(`SELECT id FROM ${this.p}users WHERE name = ?`, [name]);
      if (!row) throw new ControlError(`no user named "${name}"`);
      await session.run(`UPDATE ${this.p}users SET token_hash = ?, token_created = ? WHERE name = ?`, [
        tokenDigest(token),
        new Date().toISOString(),
        name,
      ]);
      await this.bump(session);
    });
    return token;
  }

  /** Removes the user, their token, sessions and memberships; their store's files stay (docs/TEAMS.md says how to remove them). */
  async removeUser(name: string): Promise<User> {
    return this.db.transaction(async (session) => {
      const [row] = await session.all<UserRow>(`SELECT ${USER_COLUMNS} FROM ${this.p}users WHERE name = ?`, [name]);
      if (!row) throw new ControlError(`no user named "${name}"`);
      await session.run(`DELETE FROM ${this.p}members WHERE user_id = ?`, [row.id]);
      await session.run(`DELETE FROM ${this.p}sessions WHERE user_id = ?`, [row.id]);
      await session.run(`DELETE FROM ${this.p}users WHERE id = ?`, [row.id]);
      await this.bump(session);
      return toUser(row);
    });
  }

  async userByIdentity(issuer: string, subject: string): Promise<User | null> {
    const [row] = await this.db.all<UserRow>(
      `SELECT ${USER_COLUMNS} FROM ${this.p}users WHERE oidc_issuer = ? AND oidc_subject = ?`,
      [issuer, subject],
    );
    return row ? toUser(row) : null;
  }

  async linkIdentity(name: string, issuer: string, subject: string): Promise<void> {
    await this.db.transaction(async (session) => {
      await session.run(`UPDATE ${this.p}users SET oidc_issuer = ?, oidc_subject = ? WHERE name = ?`, [
        issuer,
        subject,
        name,
      ]);
      await this.bump(session);
    });
  }

  // Spaces

  async spaces(): Promise<Array<Space & { members: Array<{ user: string; role: Role }> }>> {
    const spaces = await this.db.all<Space>(`SELECT id, name, store, created FROM ${this.p}spaces ORDER BY name`);
    const members = await this.db.all<{ space_id: string; name: string; role: Role }>(
      `SELECT m.space_id, u.name, m.role FROM ${this.p}members m JOIN ${this.p}users u ON u.id = m.user_id ORDER BY u.name`,
    );
    return spaces.map((space) => ({
      ...space,
      members: members.filter((m) => m.space_id === space.id).map((m) => ({ user: m.name, role: m.role })),
    }));
  }

  async addSpace(name: string): Promise<Space> {
    checkName('space', name);
    const id = newId();
    const space = { id, name, store: `spaces/${id}`, created: new Date().toISOString() };
    await this.db.transaction(async (session) => {
      const [taken] = await session.all(`SELECT 1 AS x FROM ${this.p}spaces WHERE name = ?`, [name]);
      if (taken) throw new ControlError(`a space named "${name}" exists`);
      await session.run(`INSERT INTO ${this.p}spaces (id, name, store, created) VALUES (?, ?, ?, ?)`, [
        space.id,
        space.name,
        space.store,
        space.created,
      ]);
      await this.bump(session);
    });
    return space;
  }

  async removeSpace(name: string): Promise<Space> {
    return this.db.transaction(async (session) => {
      const [space] = await session.all<Space>(`SELECT id, name, store, created FROM ${this.p}spaces WHERE name = ?`, [
        name,
      ]);
      if (!space) throw new ControlError(`no space named "${name}"`);
      await session.run(`DELETE FROM ${this.p}members WHERE space_id = ?`, [space.id]);
      await session.run(`DELETE FROM ${this.p}spaces WHERE id = ?`, [space.id]);
      await this.bump(session);
      return space;
    });
  }

  /** Adds `user` to `space` with `role`, or changes their role. */
  async setMember(spaceName: string, userName: string, role: Role): Promise<void> {
    if (role !== 'reader' && role !== 'editor') throw new ControlError(`a role is reader or editor (got "${role}")`);
    await this.db.transaction(async (session) => {
      const [space] = await session.all<{ id: string }>(`SELECT id FROM ${this.p}spaces WHERE name = ?`, [spaceName]);
      if (!space) throw new ControlError(`no space named "${spaceName}"`);
      const [user] = await session.all<{ id: string }>(`SELECT id FROM ${this.p}users WHERE name = ?`, [userName]);
      if (!user) throw new ControlError(`no user named "${userName}"`);
      await session.run(`DELETE FROM ${this.p}members WHERE space_id = ? AND user_id = ?`, [space.id, user.id]);
      await session.run(`INSERT INTO ${this.p}members (space_id, user_id, role) VALUES (?, ?, ?)`, [
        space.id,
        user.id,
        role,
      ]);
      await this.bump(session);
    });
  }

  async removeMember(spaceName: string, userName: string): Promise<void> {
    await this.db.transaction(async (session) => {
      const rows = await session.all<{ space_id: string; user_id: string }>(
        `SELECT m.space_id, m.user_id FROM ${this.p}members m JOIN ${this.p}spaces s ON s.id = m.space_id JOIN ${this.p}users u ON u.id = m.user_id
          WHERE s.name = ? AND u.name = ?`,
        [spaceName, userName],
      );
      if (!rows.length) throw new ControlError(`"${userName}" is not a member of "${spaceName}"`);
      await session.run(`DELETE FROM ${this.p}members WHERE space_id = ? AND user_id = ?`, [
        rows[0].space_id,
        rows[0].user_id,
      ]);
      await this.bump(session);
    });
  }

  /** Every membership, by user id (the server's cache). */
  async memberships(): Promise<Map<string, Membership[]>> {
    const rows = await this.db.all<{
      user_id: string;
      role: Role;
      id: string;
      name: string;
      store: string;
      created: string;
    }>(
      `SELECT m.user_id, m.role, s.id, s.name, s.store, s.created FROM ${this.p}members m JOIN ${this.p}spaces s ON s.id = m.space_id ORDER BY s.name`,
    );
    const byUser = new Map<string, Membership[]>();
    for (const row of rows) {
      const list = byUser.get(row.user_id) ?? [];
      list.push({ role: row.role, space: { id: row.id, name: row.name, store: row.store, created: row.created } });
      byUser.set(row.user_id, list);
    }
    return byUser;
  }

  // Web sessions (OpenID Connect sign-in): the cookie holds a random id, stored here as its digest.

  async addSession(userId: string, ttlMs: number): Promise<{ id: string; csrf: string; expires: string }> {
    const id = newToken();
    const csrf = newToken();
    const expires = new Date(Date.now() + ttlMs).toISOString();
    await this.db.run(
      `INSERT INTO ${this.p}sessions (id_hash, user_id, csrf, created, expires) VALUES (?, ?, ?, ?, ?)`,
      [tokenDigest(id), userId, csrf, new Date().toISOString(), expires],
    );
    return { id, csrf, expires };
  }

  async session(id: string): Promise<{ userId: string; csrf: string } | null> {
    const [row] = await this.db.all<{ user_id: string; csrf: string; expires: string }>(
      `SELECT user_id, csrf, expires FROM ${this.p}sessions WHERE id_hash = ?`,
      [tokenDigest(id)],
    );
    if (!row || row.expires < new Date().toISOString()) return null;
    return { userId: row.user_id, csrf: row.csrf };
  }

  async removeSession(id: string): Promise<void> {
    await this.db.run(`DELETE FROM ${this.p}sessions WHERE id_hash = ?`, [tokenDigest(id)]);
  }

  /** PostgreSQL: the bytes a schema's tables and indexes take (a user's store, for the quota). */
  async schemaBytes(schema: string): Promise<number> {
    const [row] = await this.db.all<{ bytes: string | null }>(
      `SELECT SUM(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ? AND c.relkind IN ('r', 'm')`,
      [schema],
    );
    return Number(row?.bytes ?? 0);
  }

  // Audit

  async appendAudit(entries: AuditEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.db.transaction(async (session) => {
      for (const e of entries) {
        await session.run(
          `INSERT INTO ${this.p}audit (at, user_id, user_name, action, method, route, record, status, client, store) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [e.at, e.userId, e.userName, e.action, e.method, e.route, e.record, e.status, e.client, e.store],
        );
      }
    });
  }

  async audit(filter: AuditFilter = {}): Promise<AuditEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const condition = (sql: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(sql);
      params.push(value);
    };
    condition('user_name = ?', filter.user);
    condition('action = ?', filter.action);
    condition('at >= ?', filter.since);
    condition('at < ?', filter.until);
    const limit = Math.min(Math.max(filter.limit ?? 1000, 1), 100_000);
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT at, user_id, user_name, action, method, route, record, status, client, store FROM ${this.p}audit
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ${limit}`,
      params,
    );
    return rows.reverse().map((r) => ({
      at: String(r.at),
      userId: (r.user_id as string | null) ?? null,
      userName: (r.user_name as string | null) ?? null,
      action: String(r.action),
      method: (r.method as string | null) ?? null,
      route: (r.route as string | null) ?? null,
      record: (r.record as string | null) ?? null,
      status: r.status === null || r.status === undefined ? null : Number(r.status),
      client: (r.client as string | null) ?? null,
      store: (r.store as string | null) ?? null,
    }));
  }

  /** Removes audit entries older than `days` and expired sessions. */
  async prune(days: number): Promise<void> {
    const cutoff = new Date(Date.now() - days * 86_400_000).toISOString();
    await this.db.run(`DELETE FROM ${this.p}audit WHERE at < ?`, [cutoff]);
    await this.db.run(`DELETE FROM ${this.p}sessions WHERE expires < ?`, [new Date().toISOString()]);
  }
}

import { Logger } from '@nestjs/common';
import { ControlStore, Membership, User } from './control-store';
import { tokenDigest } from './tokens';

/** An unknown token makes the front look at the directory at once, at most this often. */
const MISS_REFRESH_MS = 200;

/**
 * The team directory as the front reads it: users by token digest and by id, and each user's
 * space memberships, read again whenever the directory's version moves (`trove users|spaces`
 * changed it) and at once, rate-limited, for a token nobody here knows yet.
 */
export class TeamDirectory {
  private readonly logger = new Logger('Team');
  private byDigest = new Map<string, User>();
  private byId = new Map<string, User>();
  private memberships = new Map<string, Membership[]>();
  private version = -1;
  private lastMissRefresh = 0;
  private missRefreshing: Promise<void> | null = null;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly control: ControlStore) {}

  /** Users exist. */
  get hasUsers(): boolean {
    return this.byId.size > 0;
  }

  /** Picks up what `trove users|spaces` changed (the directory's version moved). */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const version = await this.control.version();
        if (version === this.version) return;
        const [users, memberships] = await Promise.all([this.control.tokenDigests(), this.control.memberships()]);
        this.byDigest = users;
        this.byId = new Map([...users.values()].map((u) => [u.id, u]));
        for (const user of await this.control.users()) this.byId.set(user.id, user);
        this.memberships = memberships;
        if (this.version >= 0) this.logger.log(`directory changed: ${this.byId.size} users`);
        this.version = version;
      } catch (error) {
        this.logger.warn(`the team directory could not be read: ${(error as Error).message}`);
      }
    })().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /**
   * A look at the directory for a token the front does not know: at most one every
   * MISS_REFRESH_MS, which every such request waits for (a flood of bad tokens costs the
   * directory five reads a second, and a token made a moment ago is never refused).
   */
  refreshForMiss(): Promise<void> {
    this.missRefreshing ??= (async () => {
      const wait = this.lastMissRefresh + MISS_REFRESH_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.lastMissRefresh = Date.now();
      // A read already under way may have begun before the token was made: a fresh one after it.
      await this.refreshing;
      await this.refresh();
    })().finally(() => (this.missRefreshing = null));
    return this.missRefreshing;
  }

  /** The user of a token; a token nobody here knows makes the directory be read again first (see refreshForMiss). */
  async userOf(token: string): Promise<User | null> {
    const digest = tokenDigest(token);
    const known = this.byDigest.get(digest);
    if (known) return known;
    // A token made a moment ago (trove users add / token): look at the directory now, not at the next poll.
    await this.refreshForMiss();
    return this.byDigest.get(digest) ?? null;
  }

  /** The user of an id (sessions name their user by id). */
  userById(id: string): User | null {
    return this.byId.get(id) ?? null;
  }

  /** The spaces a user belongs to, with their role in each. */
  membershipsOf(userId: string): Membership[] {
    return this.memberships.get(userId) ?? [];
  }
}

import type { Pool } from 'pg';
import { type HeldConnection, holdListener } from '../../platform/database/held-connection';
import { EVERYONE, IDENTITY_CHANGED_CHANNEL } from '../../platform/database/notifications';
import { logger } from '../../platform/logging/logger';
import type { UserWithPlan } from '../application/user-directory';

interface Entry {
  user: UserWithPlan;
  sessionExpiresAt: number;
  cachedAt: number;
}

type Lookup = (sessionId: string, now: Date) => Promise<(UserWithPlan & { session_expires_at: Date }) | null>;

/**
 * Open sessions and their users, kept in memory between requests, so an authenticated
 * request costs no database round trip once its session has been seen.
 *
 * Correctness rests on invalidation, not on the entry's age:
 * - every writer that ends a session or changes a user row sends NOTIFY identity_changed
 *   with the user id in its own transaction, and every process LISTENs: other api
 *   instances forget that user's entries as soon as the commit is announced (all entries
 *   for EVERYONE, sent when what every user object lists changes, such as a model's plans);
 * - this process forgets at once what it changes itself (`forget`), so a caller reads its
 *   own writes;
 * - a lookup that overlapped any invalidation is not cached (it may have read the old row);
 * - while the LISTEN connection is down nothing is cached and every lookup queries.
 * `MAX_AGE_MS` only bounds the damage of a notification lost in transit.
 */
export class SignedInUsers {
  static readonly MAX_AGE_MS = 60_000;
  static readonly MAX_ENTRIES = 50_000;

  private readonly entries = new Map<string, Entry>();
  private readonly sessionsOf = new Map<string, Set<string>>();
  private invalidations = 0;
  private listener: Promise<HeldConnection> | null = null;
  private listening = false;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly lookup: Lookup,
  ) {}

  /** The active user of this open session, or null. */
  async of(sessionId: string, now: Date): Promise<UserWithPlan | null> {
    const nowMs = now.getTime();
    const entry = this.entries.get(sessionId);
    if (entry && this.listening && entry.sessionExpiresAt > nowMs && nowMs - entry.cachedAt < SignedInUsers.MAX_AGE_MS) return entry.user;
    if (entry) this.drop(sessionId, entry.user.id);
    if (!this.listening) this.startListening();

    const invalidationsBefore = this.invalidations;
    const row = await this.lookup(sessionId, now);
    if (!row) return null;
    const { session_expires_at: expiresAt, ...user } = row;
    if (this.listening && invalidationsBefore === this.invalidations) this.remember(sessionId, user, expiresAt.getTime(), nowMs);
    return user;
  }

  /** Forgets every entry of this user (its sessions or its row changed here). */
  forget(userId: string): void {
    this.invalidations += 1;
    for (const sessionId of this.sessionsOf.get(userId) ?? []) this.entries.delete(sessionId);
    this.sessionsOf.delete(userId);
  }

  /** Ends the LISTEN connection; safe to call again, and whether or not it already died. */
  async close(): Promise<void> {
    this.closed = true;
    this.clear();
    const connection = await this.listener?.catch(() => null);
    this.listener = null;
    connection?.release(true);
  }

  private remember(sessionId: string, user: UserWithPlan, sessionExpiresAt: number, nowMs: number): void {
    if (this.entries.size >= SignedInUsers.MAX_ENTRIES) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.drop(oldest, entry.user.id);
    }
    this.entries.set(sessionId, { user, sessionExpiresAt, cachedAt: nowMs });
    let sessions = this.sessionsOf.get(user.id);
    if (!sessions) this.sessionsOf.set(user.id, (sessions = new Set()));
    sessions.add(sessionId);
  }

  private drop(sessionId: string, userId: string): void {
    this.entries.delete(sessionId);
    const sessions = this.sessionsOf.get(userId);
    sessions?.delete(sessionId);
    if (sessions?.size === 0) this.sessionsOf.delete(userId);
  }

  private clear(): void {
    this.invalidations += 1;
    this.entries.clear();
    this.sessionsOf.clear();
  }

  private startListening(): void {
    if (this.listener || this.closed) return;
    const listener = holdListener(
      this.pool,
      IDENTITY_CHANGED_CHANNEL,
      (payload) => (payload === EVERYONE ? this.clear() : this.forget(payload)),
      (error) => {
        logger.warn({ err: error }, 'identity LISTEN connection lost; authenticating from the database until it is back');
        this.listening = false;
        this.listener = null;
        this.clear();
      },
    );
    this.listener = listener;
    listener.then(
      (connection) => (this.listening = !this.closed && connection.alive),
      (error: unknown) => {
        logger.warn({ err: error }, 'identity LISTEN failed; authenticating from the database');
        this.listener = null;
      },
    );
  }
}

import { createHash, randomBytes } from 'node:crypto';

/** A code is for opening the window now: a browser that has not used it by then never will. */
export const CODE_LIFETIME_MS = 2 * 60_000;
/** Only the owner can mint codes, so these bounds only keep a runaway script from growing the maps. */
const MAX_CODES = 100;
const MAX_SESSIONS = 100;

/** Kept by hash, so a lookup's timing says nothing about a token, and memory holds none. */
const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Who may use the window. A one-time code (in the address the host prints or opens, or that a
 * second start asks for) is traded once, within two minutes, for a session: a new random token
 * that only ever travels in an HttpOnly cookie. A code seen in a process list or a terminal's
 * history is soon worthless, and the cookie is never in an address.
 */
export class WindowAccess {
  private readonly codes = new Map<string, number>(); // digest → expiry (ms)
  private readonly sessions = new Set<string>(); // digests

  constructor(private readonly now: () => Date = () => new Date()) {}

  newCode(): string {
    const now = this.now().getTime();
    for (const [code, expires] of this.codes) if (expires <= now) this.codes.delete(code);
    if (this.codes.size >= MAX_CODES) this.codes.delete(this.codes.keys().next().value!);
    const code = randomBytes(32).toString('base64url');
    this.codes.set(digest(code), now + CODE_LIFETIME_MS);
    return code;
  }

  /** A new session token for a live code, which is then spent; null for any other code. */
  redeem(code: string): string | null {
    const key = digest(code);
    const expires = this.codes.get(key);
    this.codes.delete(key);
    if (expires === undefined || expires <= this.now().getTime()) return null;
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.values().next().value!);
    const session = randomBytes(32).toString('base64url');
    this.sessions.add(digest(session));
    return session;
  }

  hasSession(token: string): boolean {
    return this.sessions.has(digest(token));
  }
}

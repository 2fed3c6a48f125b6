import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Request } from 'express';
import passport from 'passport';
import { Strategy as CustomStrategy } from 'passport-custom';
import { IdentityContext } from '../application/identity-context';
import type { UserWithPlan } from '../application/user-directory';
import { type AccessClaims, verifyAccessToken } from '../infrastructure/access-token';

const MAX_VERIFIED_TOKENS = 10_000;

/** Who an authenticated request speaks for (`request.caller`, `@CurrentCaller()`). */
export interface Caller {
  userId: string;
  sessionId: string;
  isStaff: boolean;
  /** Read-only staff: the console guard lets them read, never write. */
  isAuditor: boolean;
  /** The device signed in with this token's session (device grant or a desktop's sign-in); null on the web. */
  deviceId: string | null;
  /** The caller's row of the users read model, as of this request. */
  user: UserWithPlan;
}

let instances = 0;

/**
 * Passport's strategy for the bearer access token: an HS256 JWT this api signed, not expired,
 * whose session is still open. The open session and its user come from the signed-in users
 * kept in memory (no database round trip once seen, invalidated on every change), so signing
 * out, a password change or reset, deactivation and refresh-token theft refuse the very next
 * request, not the token's expiry. Staff rights come from the read model, not the token.
 *
 * A passport-custom strategy rather than passport-jwt: the token is signed and verified by one
 * implementation (`access-token.ts`), and a verified signature is remembered, which
 * passport-jwt (jsonwebtoken on every request) would not do.
 */
@Injectable()
export class AccessTokenStrategy implements OnModuleDestroy {
  /**
   * Its name in passport's registry, which is one per process: two api instances in one
   * process (the cross-instance tests) must each answer from their own signed-in users.
   */
  readonly name = `access-token-${(instances += 1)}`;
  private readonly verifiedTokens = new Map<string, AccessClaims>();

  constructor(private readonly identity: IdentityContext) {
    const verify = (request: Request, done: (error: unknown, caller?: Caller | false) => void) => {
      this.validate(request).then((caller) => done(null, caller ?? false), done);
    };
    passport.use(this.name, new CustomStrategy(verify));
  }

  onModuleDestroy(): void {
    passport.unuse(this.name);
  }

  /** The caller whose valid bearer token and open session this request carries, or null. */
  async validate(request: Request): Promise<Caller | null> {
    const header = request.header('authorization');
    if (!header?.startsWith('Bearer ')) return null;
    const now = new Date();
    const claims = this.verified(header.slice('Bearer '.length).trim(), now);
    const user = claims && (await this.identity.signedIn.of(claims.sid, now));
    if (!user || user.id !== claims.sub) return null;
    return {
      userId: user.id,
      sessionId: claims.sid,
      isStaff: user.is_staff,
      isAuditor: user.is_auditor,
      deviceId: claims.did ?? null,
      user,
    };
  }

  /**
   * The token's claims, remembering tokens already verified: a signed token never changes,
   * so only its expiry needs checking again. Revocation is the session lookup's business.
   */
  private verified(token: string, now: Date): AccessClaims | null {
    const known = this.verifiedTokens.get(token);
    if (known) return known.exp > now.getTime() / 1000 ? known : null;
    const claims = verifyAccessToken(token, this.identity.secrets.jwtSecret, now);
    if (claims) {
      if (this.verifiedTokens.size >= MAX_VERIFIED_TOKENS) this.verifiedTokens.delete(this.verifiedTokens.keys().next().value!);
      this.verifiedTokens.set(token, claims);
    }
    return claims;
  }
}

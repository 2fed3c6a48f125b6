import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Request } from 'express';
import { API_TOKEN_PREFIX, type ApiTokenScopeLimit } from '@meshwork/contracts';
import { forbidden, tooManyRequests } from '../../platform/domain/errors';
import { logger } from '../../platform/logging/logger';
import { narrowerScope } from '../domain/api-token.decider';
import { RATE_WINDOW_SECONDS } from '../infrastructure/api-rate-limits';
import { apiTokenHash, isWellFormedApiToken } from '../infrastructure/api-token-secret';
import passport from 'passport';
import { Strategy as CustomStrategy } from 'passport-custom';
import { IdentityContext } from '../application/identity-context';
import type { UserWithPlan } from '../application/user-directory';
import { type AccessClaims, verifyAccessToken } from '../infrastructure/access-token';

const MAX_VERIFIED_TOKENS = 10_000;
/** last_used_at is written at most once a minute per token (and per instance before that: see ApiTokenStore.touch). */
const TOUCH_EVERY_MS = 60_000;
/** Methods that change nothing: all a read-scoped token may call. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/** Who an authenticated request speaks for (`request.caller`, `@CurrentCaller()`). */
export interface Caller {
  userId: string;
  sessionId: string;
  isStaff: boolean;
  /** Read-only staff: the console guard lets them read, never write. */
  isAuditor: boolean;
  /** The device signed in with this token's session (device grant or a desktop's sign-in); null on the web. */
  deviceId: string | null;
  /** When the access token expires; null for an API token (checked on each request instead). */
  tokenExpiresAt: Date | null;
  /** The caller's row of the users read model, as of this request. */
  user: UserWithPlan;
  /** Set when an API token, not a session, authenticated the request: its id and effective scope now. */
  apiToken?: { id: string; scope: Exclude<ApiTokenScopeLimit, 'none'> };
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
  private readonly touchedAt = new Map<string, number>();

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
    const bearer = header.slice('Bearer '.length).trim();
    if (bearer.startsWith(API_TOKEN_PREFIX)) return this.validateApiToken(request, bearer, now);
    const claims = this.verified(bearer, now);
    const user = claims && (await this.identity.signedIn.of(claims.sid, now));
    if (!user || user.id !== claims.sub) return null;
    return {
      userId: user.id,
      sessionId: claims.sid,
      isStaff: user.is_staff,
      isAuditor: user.is_auditor,
      deviceId: claims.did ?? null,
      tokenExpiresAt: new Date(claims.exp * 1000),
      user,
    };
  }

  /**
   * An API token's caller. Every check reads the state of this request: the token unrevoked
   * and unexpired and its account active (the cached lookup is forgotten on any change, on
   * every instance), the scope narrowed to what the plan allows now, then the plan's rate
   * in PostgreSQL, shared by every instance. Refusals past authentication say why (403, 429).
   */
  private async validateApiToken(request: Request, token: string, now: Date): Promise<Caller | null> {
    if (!isWellFormedApiToken(token)) return null;
    const user = await this.identity.tokenUser(apiTokenHash(token), now);
    if (!user) return null;
    const scope = narrowerScope(user.token_scope, user.api_token_scope);
    if (scope === 'none') throw forbidden('Your plan no longer includes API tokens. Upgrade to use the API.');
    if (scope === 'read' && !READ_METHODS.has(request.method))
      throw forbidden(
        user.token_scope === 'read'
          ? 'This API token is read-only: it may only read (GET).'
          : 'Your plan now allows read-only API tokens: this token may only read (GET).',
      );
    const limit = user.api_requests_per_minute;
    const rate = await this.identity.rateLimits.hit(user.token_id, limit);
    request.res?.setHeader('RateLimit-Limit', String(rate.limit));
    request.res?.setHeader('RateLimit-Remaining', String(rate.remaining));
    request.res?.setHeader('RateLimit-Reset', String(rate.resetSeconds));
    request.res?.setHeader('RateLimit-Policy', `${limit};w=${RATE_WINDOW_SECONDS}`);
    if (!rate.allowed)
      throw tooManyRequests(
        `This API token may make ${limit} requests a minute on your plan. Try again in ${rate.resetSeconds} seconds.`,
        rate.resetSeconds,
      );
    this.touch(user.token_id, now);
    return {
      userId: user.id,
      sessionId: '',
      isStaff: user.is_staff,
      isAuditor: user.is_auditor,
      deviceId: null,
      tokenExpiresAt: null,
      user,
      apiToken: { id: user.token_id, scope },
    };
  }

  /** Records the token's use without holding up the request, at most once a minute per token here. */
  private touch(tokenId: string, now: Date): void {
    const last = this.touchedAt.get(tokenId);
    if (last !== undefined && now.getTime() - last < TOUCH_EVERY_MS) return;
    if (this.touchedAt.size >= MAX_VERIFIED_TOKENS) this.touchedAt.clear();
    this.touchedAt.set(tokenId, now.getTime());
    this.identity.apiTokens.touch(tokenId, now).catch((error: unknown) => logger.warn({ err: error }, 'recording an API token use failed'));
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

import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import passport from 'passport';
import type { IdentityContext } from '../application/identity-context';
import type { UserWithPlan } from '../application/user-directory';
import { signAccessToken } from '../infrastructure/access-token';
import { AccessTokenStrategy, type Caller } from './access-token.strategy';

const secret = randomBytes(32);

const row = (id: string, overrides: Partial<UserWithPlan> = {}): UserWithPlan => ({
  id,
  username: 'ada',
  email: 'ada@example.com',
  first_name: '',
  last_name: '',
  is_staff: false,
  is_auditor: false,
  is_active: true,
  created_at: new Date('2026-01-01T00:00:00Z'),
  last_login: null,
  plan_id: 'free',
  max_clients: 2,
  allowed_models: [],
  api_token_scope: 'read',
  api_requests_per_minute: 60,
  ...overrides,
});

/** A strategy over an in-memory table of open sessions (session id -> user row). */
function subject() {
  const openSessions = new Map<string, UserWithPlan>();
  const identity = {
    secrets: { jwtSecret: secret },
    signedIn: { of: async (sessionId: string) => openSessions.get(sessionId) ?? null },
  } as unknown as IdentityContext;
  return { strategy: new AccessTokenStrategy(identity), openSessions };
}

const token = (sub: string, sid: string, options: { isStaff?: boolean; key?: Buffer; issuedAt?: Date; deviceId?: string } = {}) =>
  signAccessToken(
    {
      sub,
      user_id: sub,
      email: 'ada@example.com',
      is_staff: options.isStaff ?? false,
      sid,
      ...(options.deviceId ? { did: options.deviceId } : {}),
    },
    options.key ?? secret,
    900,
    options.issuedAt ?? new Date(),
  );

const requestWith = (authorization?: string) =>
  ({ header: (name: string) => (name.toLowerCase() === 'authorization' ? authorization : undefined) }) as unknown as Request;

/** What passport answers for this request with the strategy's name, as the guards ask it. */
function authenticate(name: string, request: Request): Promise<Caller | false> {
  return new Promise((resolve, reject) => {
    const middleware = passport.authenticate(name, { session: false }, (error: unknown, caller: Caller | false) =>
      error ? reject(error as Error) : resolve(caller),
    ) as (req: Request, res: unknown, next: (error?: unknown) => void) => void;
    middleware(request, {}, (error) => reject(error as Error));
  });
}

describe('AccessTokenStrategy', () => {
  const strategies: AccessTokenStrategy[] = [];
  const make = () => {
    const made = subject();
    strategies.push(made.strategy);
    return made;
  };
  afterAll(() => strategies.forEach((strategy) => strategy.onModuleDestroy()));

  describe('validate', () => {
    it('gives the caller of a valid token whose session is open, with staff rights from the read model, not the token', async () => {
      const { strategy, openSessions } = make();
      openSessions.set('s1', row('u1'));
      const issuedAt = new Date();
      const caller = await strategy.validate(requestWith(`Bearer ${token('u1', 's1', { isStaff: true, issuedAt })}`));
      expect(caller).toEqual({
        userId: 'u1',
        sessionId: 's1',
        isStaff: false,
        isAuditor: false,
        deviceId: null,
        // The token's own expiry, to the second it names: issued now, for 900 s.
        tokenExpiresAt: new Date((Math.floor(issuedAt.getTime() / 1000) + 900) * 1000),
        user: row('u1'),
      });
    });

    it("gives a device's token its device (issue 12), from the signed claims", async () => {
      const { strategy, openSessions } = make();
      openSessions.set('s2', row('u1'));
      const caller = await strategy.validate(requestWith(`Bearer ${token('u1', 's2', { deviceId: 'd1' })}`));
      expect(caller).toEqual(expect.objectContaining({ userId: 'u1', sessionId: 's2', deviceId: 'd1' }));
    });

    it('refuses no token, another scheme, garbage, a forged signature and an expired token', async () => {
      const { strategy, openSessions } = make();
      openSessions.set('s1', row('u1'));
      const valid = token('u1', 's1');
      const refused = [
        undefined,
        `Basic ${valid}`,
        'Bearer garbage',
        `Bearer ${token('u1', 's1', { key: randomBytes(32) })}`,
        `Bearer ${valid.slice(0, -3)}abc`,
        `Bearer ${token('u1', 's1', { issuedAt: new Date(Date.now() - 901_000) })}`,
      ];
      for (const header of refused) expect(await strategy.validate(requestWith(header))).toBeNull();
    });

    it('refuses a token on the next request once its session ends, though its signature was verified before', async () => {
      const { strategy, openSessions } = make();
      openSessions.set('s1', row('u1'));
      const request = requestWith(`Bearer ${token('u1', 's1')}`);
      expect(await strategy.validate(request)).not.toBeNull();
      openSessions.delete('s1');
      expect(await strategy.validate(request)).toBeNull();
    });

    it("refuses a token whose session is another user's", async () => {
      const { strategy, openSessions } = make();
      openSessions.set('s1', row('u2'));
      expect(await strategy.validate(requestWith(`Bearer ${token('u1', 's1')}`))).toBeNull();
    });
  });

  describe('in passport', () => {
    it('authenticates by its name: the caller on success, a failure (false) without one', async () => {
      const { strategy, openSessions } = make();
      openSessions.set('s1', row('u1', { is_staff: true }));
      const caller = await authenticate(strategy.name, requestWith(`Bearer ${token('u1', 's1')}`));
      expect(caller).toMatchObject({ userId: 'u1', sessionId: 's1', isStaff: true });
      expect(await authenticate(strategy.name, requestWith('Bearer garbage'))).toBe(false);
    });

    it('registers each instance under a name of its own, so two api instances in one process keep their own users', async () => {
      const first = make();
      const second = make();
      expect(first.strategy.name).not.toBe(second.strategy.name);
      first.openSessions.set('s1', row('u1'));
      const request = requestWith(`Bearer ${token('u1', 's1')}`);
      expect(await authenticate(first.strategy.name, request)).toMatchObject({ userId: 'u1' });
      expect(await authenticate(second.strategy.name, request)).toBe(false);
    });

    it('leaves passport when its module ends', async () => {
      const { strategy } = subject();
      strategy.onModuleDestroy();
      await expect(authenticate(strategy.name, requestWith())).rejects.toThrow(`Unknown authentication strategy "${strategy.name}"`);
    });
  });
});

import { given } from '../../platform/testing/given-when-then';
import { userDecider } from './user.decider';
import type { UserEvent } from './user.events';

const at = new Date('2026-03-01T10:00:00Z');
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', email: 'ann@example.com', username: 'ann', passwordHash: 'h1', isStaff: false, isAuditor: false },
};
const signedIn = (sessionId: string): UserEvent => ({
  type: 'UserSignedIn',
  data: { sessionId, deviceFingerprint: 'web-browser', ip: '192.0.2.1', userAgent: 'UA' },
});
const resetRequested: UserEvent = { type: 'PasswordResetRequested', data: { tokenHash: 't1', expiresAt: '2026-03-01T11:00:00.000Z' } };
const deactivated: UserEvent = { type: 'UserDeactivated', data: {} };
const deleted: UserEvent = { type: 'UserDeleted', data: {} };

describe('user decider', () => {
  describe('when nobody is registered', () => {
    it('registers', () => {
      given(userDecider)
        .when({
          type: 'RegisterUser',
          at,
          userId: 'u1',
          email: 'ann@example.com',
          username: 'ann',
          passwordHash: 'h1',
          isStaff: false,
          isAuditor: false,
        })
        .then([registered]);
    });
    it('refuses an account that is both staff and auditor', () => {
      given(userDecider)
        .when({
          type: 'RegisterUser',
          at,
          userId: 'u1',
          email: 'a@example.com',
          username: 'a',
          passwordHash: 'h',
          isStaff: true,
          isAuditor: true,
        })
        .thenThrows(/staff or an auditor/);
    });
    it('refuses everything else as not found', () => {
      given(userDecider)
        .when({ type: 'SignIn', at, sessionId: 's1', deviceFingerprint: 'x', ip: null, userAgent: null })
        .thenThrows(/not found/);
      given(userDecider)
        .when({ type: 'Deactivate', at })
        .thenThrows(/not found/);
    });
  });

  describe('when active', () => {
    it('refuses a second registration', () => {
      given(userDecider, [registered])
        .when({
          type: 'RegisterUser',
          at,
          userId: 'u1',
          email: 'b@example.com',
          username: 'b',
          passwordHash: 'h',
          isStaff: false,
          isAuditor: false,
        })
        .thenThrows(/already exists/);
    });

    it('changes roles only when they differ, never to both', () => {
      const toAuditor = given(userDecider, [registered]).when({ type: 'ChangeRoles', at, isStaff: false, isAuditor: true });
      toAuditor.then([{ type: 'UserRolesChanged', data: { isStaff: false, isAuditor: true } }]);
      expect(toAuditor.thenState()).toMatchObject({ isStaff: false, isAuditor: true });
      given(userDecider, [registered]).when({ type: 'ChangeRoles', at, isStaff: false, isAuditor: false }).then([]);
      given(userDecider, [registered])
        .when({ type: 'ChangeRoles', at, isStaff: true, isAuditor: true })
        .thenThrows(/staff or an auditor/);
    });

    it('reads a registration from before auditors as not an auditor', () => {
      const old: UserEvent = {
        type: 'UserRegistered',
        data: { userId: 'u1', email: 'a@example.com', username: 'a', passwordHash: 'h', isStaff: true },
      };
      expect(given(userDecider, [old]).when({ type: 'Reactivate', at }).thenState()).toMatchObject({ isStaff: true, isAuditor: false });
    });

    it('records only the profile fields that change', () => {
      given(userDecider, [registered])
        .when({ type: 'UpdateProfile', at, email: 'ann@example.com', username: 'annie', firstName: 'Ann' })
        .then([{ type: 'ProfileUpdated', data: { username: 'annie', firstName: 'Ann' } }]);
      given(userDecider, [registered]).when({ type: 'UpdateProfile', at, email: 'ann@example.com' }).then([]);
    });

    it('signs in with the device, ip and user agent', () => {
      given(userDecider, [registered])
        .when({ type: 'SignIn', at, sessionId: 's1', deviceFingerprint: 'web-browser', ip: '192.0.2.1', userAgent: 'UA' })
        .then([signedIn('s1')]);
    });

    it('signs out an open session once, and ignores an unknown one', () => {
      given(userDecider, [registered, signedIn('s1')])
        .when({ type: 'SignOut', at, sessionId: 's1', reason: 'logout' })
        .then([{ type: 'UserSignedOut', data: { sessionId: 's1', reason: 'logout' } }]);
      given(userDecider, [registered, signedIn('s1'), { type: 'UserSignedOut', data: { sessionId: 's1', reason: 'logout' } }])
        .when({ type: 'SignOut', at, sessionId: 's1', reason: 'logout' })
        .then([]);
    });

    it('changes the password, keeping only the current session open', () => {
      const state = given(userDecider, [registered, signedIn('s1'), signedIn('s2')])
        .when({ type: 'ChangePassword', at, passwordHash: 'h2', keptSessionId: 's2' })
        .thenState();
      expect(state).toMatchObject({ status: 'active', passwordHash: 'h2', openSessions: ['s2'] });
    });

    it('requests a reset that expires', () => {
      given(userDecider, [registered])
        .when({ type: 'RequestPasswordReset', at, tokenHash: 't1', expiresAt: new Date('2026-03-01T11:00:00Z') })
        .then([resetRequested]);
    });
  });

  describe('when a reset is pending', () => {
    it('completes it with the right token before it expires, closing every session', () => {
      const state = given(userDecider, [registered, signedIn('s1'), resetRequested])
        .when({ type: 'CompletePasswordReset', at, tokenHash: 't1', passwordHash: 'h2' })
        .thenState();
      expect(state).toMatchObject({ passwordHash: 'h2', pendingReset: null, openSessions: [] });
    });
    it('refuses a wrong token, an expired one, and a second use', () => {
      given(userDecider, [registered, resetRequested])
        .when({ type: 'CompletePasswordReset', at, tokenHash: 'other', passwordHash: 'h2' })
        .thenThrows(/invalid or has expired/);
      given(userDecider, [registered, resetRequested])
        .when({ type: 'CompletePasswordReset', at: new Date('2026-03-01T11:00:00Z'), tokenHash: 't1', passwordHash: 'h2' })
        .thenThrows(/invalid or has expired/);
      given(userDecider, [registered, resetRequested, { type: 'PasswordResetCompleted', data: { tokenHash: 't1', passwordHash: 'h2' } }])
        .when({ type: 'CompletePasswordReset', at, tokenHash: 't1', passwordHash: 'h3' })
        .thenThrows(/invalid or has expired/);
    });
    it('lets a newer request replace the older token', () => {
      const newer: UserEvent = { type: 'PasswordResetRequested', data: { tokenHash: 't2', expiresAt: '2026-03-01T11:30:00.000Z' } };
      given(userDecider, [registered, resetRequested, newer])
        .when({ type: 'CompletePasswordReset', at, tokenHash: 't1', passwordHash: 'h2' })
        .thenThrows(/invalid/);
    });
  });

  describe('when deactivated', () => {
    it('refuses sign-in, profile changes and resets', () => {
      given(userDecider, [registered, deactivated])
        .when({ type: 'SignIn', at, sessionId: 's1', deviceFingerprint: 'x', ip: null, userAgent: null })
        .thenThrows(/deactivated/);
      given(userDecider, [registered, deactivated])
        .when({ type: 'UpdateProfile', at, firstName: 'A' })
        .thenThrows(/deactivated/);
      given(userDecider, [registered, deactivated])
        .when({ type: 'RequestPasswordReset', at, tokenHash: 't', expiresAt: at })
        .thenThrows(/deactivated/);
    });
    it('lets staff correct the names of a deactivated account', () => {
      given(userDecider, [registered, deactivated])
        .when({ type: 'UpdateProfile', at, byStaff: true, firstName: 'A' })
        .then([{ type: 'ProfileUpdated', data: { firstName: 'A' } }]);
    });
    it('closes every session on deactivation and reactivates', () => {
      const state = given(userDecider, [registered, signedIn('s1')])
        .when({ type: 'Deactivate', at })
        .thenState();
      expect(state).toMatchObject({ status: 'deactivated', openSessions: [] });
      given(userDecider, [registered, deactivated])
        .when({ type: 'Reactivate', at })
        .then([{ type: 'UserReactivated', data: {} }]);
      given(userDecider, [registered, deactivated]).when({ type: 'Deactivate', at }).then([]);
    });
  });

  describe('when deleted', () => {
    it('is gone for every command', () => {
      given(userDecider, [registered, deleted])
        .when({ type: 'SignIn', at, sessionId: 's', deviceFingerprint: 'x', ip: null, userAgent: null })
        .thenThrows(/not found/);
      given(userDecider, [registered, deleted])
        .when({ type: 'Delete', at })
        .thenThrows(/not found/);
      given(userDecider, [registered, deleted])
        .when({
          type: 'RegisterUser',
          at,
          userId: 'u1',
          email: 'a@b.co',
          username: 'abc',
          passwordHash: 'h',
          isStaff: false,
          isAuditor: false,
        })
        .thenThrows(/already exists/);
    });
  });
});

import { type Decider, unreachable } from '../../platform/domain/decider';
import type { UserCommand } from './user.commands';
import { notFound } from '../../platform/domain/errors';
import { accountDeactivated, alreadyRegistered, resetTokenInvalid, staffOrAuditor } from './user.errors';
import type { UserEvent } from './user.events';

interface Registered {
  userId: string;
  email: string;
  username: string;
  passwordHash: string;
  isStaff: boolean;
  /** Read-only staff: sees the console's read screens, audit and analytics; may change nothing there. */
  isAuditor: boolean;
  /** The one reset that may still be completed: a new request replaces it, completion spends it. */
  pendingReset: { tokenHash: string; expiresAt: string } | null;
  openSessions: string[];
}

export type UserState =
  { status: 'unregistered' } | ({ status: 'active' } & Registered) | ({ status: 'deactivated' } & Registered) | { status: 'deleted' };

function existing(state: UserState): Extract<UserState, { status: 'active' | 'deactivated' }> {
  if (state.status === 'unregistered' || state.status === 'deleted') throw notFound();
  return state;
}

function active(state: UserState): Extract<UserState, { status: 'active' }> {
  const user = existing(state);
  if (user.status === 'deactivated') throw accountDeactivated();
  return user;
}

/** The user account: registration, profile, passwords, sessions, (de)activation, deletion. */
export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: () => ({ status: 'unregistered' }),

  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser': {
        if (state.status !== 'unregistered') throw alreadyRegistered();
        const { userId, email, username, passwordHash, isStaff, isAuditor } = command;
        if (isStaff && isAuditor) throw staffOrAuditor();
        return [{ type: 'UserRegistered', data: { userId, email, username, passwordHash, isStaff, isAuditor } }];
      }
      case 'UpdateProfile': {
        const user = command.byStaff ? existing(state) : active(state);
        const data: Extract<UserEvent, { type: 'ProfileUpdated' }>['data'] = {};
        if (command.email !== undefined && command.email !== user.email) data.email = command.email;
        if (command.username !== undefined && command.username !== user.username) data.username = command.username;
        if (command.firstName !== undefined) data.firstName = command.firstName;
        if (command.lastName !== undefined) data.lastName = command.lastName;
        return Object.keys(data).length === 0 ? [] : [{ type: 'ProfileUpdated', data }];
      }
      case 'ChangePassword':
        active(state);
        return [{ type: 'PasswordChanged', data: { passwordHash: command.passwordHash, keptSessionId: command.keptSessionId } }];
      case 'RequestPasswordReset':
        active(state);
        return [{ type: 'PasswordResetRequested', data: { tokenHash: command.tokenHash, expiresAt: command.expiresAt.toISOString() } }];
      case 'CompletePasswordReset': {
        const user = active(state);
        const pending = user.pendingReset;
        if (!pending || pending.tokenHash !== command.tokenHash || new Date(pending.expiresAt) <= command.at) throw resetTokenInvalid();
        return [{ type: 'PasswordResetCompleted', data: { tokenHash: command.tokenHash, passwordHash: command.passwordHash } }];
      }
      case 'SignIn': {
        active(state);
        const { sessionId, deviceFingerprint, ip, userAgent } = command;
        return [{ type: 'UserSignedIn', data: { sessionId, deviceFingerprint, ip, userAgent } }];
      }
      case 'SignOut': {
        const user = existing(state);
        if (!user.openSessions.includes(command.sessionId)) return [];
        return [{ type: 'UserSignedOut', data: { sessionId: command.sessionId, reason: command.reason } }];
      }
      case 'ChangeRoles': {
        const user = existing(state);
        const { isStaff, isAuditor } = command;
        if (isStaff && isAuditor) throw staffOrAuditor();
        if (user.isStaff === isStaff && user.isAuditor === isAuditor) return [];
        return [{ type: 'UserRolesChanged', data: { isStaff, isAuditor } }];
      }
      case 'Deactivate':
        return existing(state).status === 'deactivated' ? [] : [{ type: 'UserDeactivated', data: {} }];
      case 'Reactivate':
        return existing(state).status === 'active' ? [] : [{ type: 'UserReactivated', data: {} }];
      case 'Delete':
        existing(state);
        return [{ type: 'UserDeleted', data: {} }];
      default:
        return unreachable(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { status: 'active', ...event.data, isAuditor: event.data.isAuditor ?? false, pendingReset: null, openSessions: [] };
      case 'UserDeleted':
        return { status: 'deleted' };
    }
    if (state.status === 'unregistered' || state.status === 'deleted') return state;
    switch (event.type) {
      case 'ProfileUpdated':
        return { ...state, email: event.data.email ?? state.email, username: event.data.username ?? state.username };
      case 'PasswordChanged':
        return {
          ...state,
          passwordHash: event.data.passwordHash,
          pendingReset: null,
          openSessions: state.openSessions.filter((s) => s === event.data.keptSessionId),
        };
      case 'PasswordResetRequested':
        return { ...state, pendingReset: { tokenHash: event.data.tokenHash, expiresAt: event.data.expiresAt } };
      case 'PasswordResetCompleted':
        return { ...state, passwordHash: event.data.passwordHash, pendingReset: null, openSessions: [] };
      case 'UserSignedIn':
        return { ...state, openSessions: [...state.openSessions, event.data.sessionId] };
      case 'UserSignedOut':
        return { ...state, openSessions: state.openSessions.filter((s) => s !== event.data.sessionId) };
      case 'UserRolesChanged':
        return { ...state, isStaff: event.data.isStaff, isAuditor: event.data.isAuditor };
      case 'UserDeactivated':
        return { ...state, status: 'deactivated', openSessions: [] };
      case 'UserReactivated':
        return { ...state, status: 'active' };
      default:
        return unreachable(event);
    }
  },
};

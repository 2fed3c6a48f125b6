import type { DomainEvent } from '../../platform/domain/decider';

/**
 * The user's history. Stored type names are schema: never rename one.
 * Personal fields (marked) are encrypted with the user's own key before they reach the
 * log, so destroying that key on deletion erases them from the log (crypto-shredding).
 */
export type UserEvent =
  | DomainEvent<
      'UserRegistered',
      {
        userId: string;
        /** personal */ email: string;
        /** personal */ username: string;
        passwordHash: string;
        isStaff: boolean;
        /** Absent before auditors existed: false. */
        isAuditor?: boolean;
      }
    >
  | DomainEvent<
      'ProfileUpdated',
      {
        /** personal */ email?: string;
        /** personal */ username?: string;
        /** personal */ firstName?: string;
        /** personal */ lastName?: string;
      }
    >
  | DomainEvent<'PasswordChanged', { passwordHash: string; keptSessionId: string | null }>
  | DomainEvent<'PasswordResetRequested', { tokenHash: string; expiresAt: string }>
  | DomainEvent<'PasswordResetCompleted', { tokenHash: string; passwordHash: string }>
  | DomainEvent<
      'UserSignedIn',
      {
        sessionId: string;
        /** personal */ deviceFingerprint: string;
        /** personal */ ip: string | null;
        /** personal */ userAgent: string | null;
      }
    >
  | DomainEvent<'UserSignedOut', { sessionId: string; reason: 'logout' | 'refresh-token-reuse' }>
  | DomainEvent<'UserRolesChanged', { isStaff: boolean; isAuditor: boolean }>
  | DomainEvent<'UserDeactivated', Record<string, never>>
  | DomainEvent<'UserReactivated', Record<string, never>>
  | DomainEvent<'UserDeleted', Record<string, never>>;

export type UserEventType = UserEvent['type'];

/** Which data fields of each event are personal, and so encrypted with the user's key. */
export const PERSONAL_FIELDS: Partial<Record<UserEventType, readonly string[]>> = {
  UserRegistered: ['email', 'username'],
  ProfileUpdated: ['email', 'username', 'firstName', 'lastName'],
  UserSignedIn: ['deviceFingerprint', 'ip', 'userAgent'],
};

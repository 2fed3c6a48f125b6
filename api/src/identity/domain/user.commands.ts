/** What can be asked of a user. `at` is the time of the request: deciders read no clock. */
export type UserCommand =
  | {
      type: 'RegisterUser';
      at: Date;
      userId: string;
      email: string;
      username: string;
      passwordHash: string;
      isStaff: boolean;
      isAuditor: boolean;
    }
  | { type: 'UpdateProfile'; at: Date; byStaff?: boolean; email?: string; username?: string; firstName?: string; lastName?: string }
  | { type: 'ChangePassword'; at: Date; passwordHash: string; keptSessionId: string | null }
  | { type: 'RequestPasswordReset'; at: Date; tokenHash: string; expiresAt: Date }
  | { type: 'CompletePasswordReset'; at: Date; tokenHash: string; passwordHash: string }
  | { type: 'SignIn'; at: Date; sessionId: string; deviceFingerprint: string; ip: string | null; userAgent: string | null }
  | { type: 'SignOut'; at: Date; sessionId: string; reason: 'logout' | 'refresh-token-reuse' }
  | { type: 'ChangeRoles'; at: Date; isStaff: boolean; isAuditor: boolean }
  | { type: 'Deactivate'; at: Date }
  | { type: 'Reactivate'; at: Date }
  | { type: 'Delete'; at: Date };

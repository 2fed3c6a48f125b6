import { z } from 'zod';
import { secret, text } from '../common/fields';
import { timestamp } from '../http/http.contract';

/**
 * The account calls of spec section 7, with the validation of section 5. The site's forms
 * and the api validate with these same schemas, so a message is written once.
 */

export const messages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email address',
  passwordRequired: 'Password is required',
  loginPasswordShort: 'Password must be at least 6 characters',
  passwordShort: 'Password must be at least 8 characters',
  passwordWeak: 'Password must contain uppercase, lowercase and number',
  usernameRequired: 'Username is required',
  usernameShort: 'Username must be at least 3 characters',
  confirmRequired: 'Please confirm your password',
  passwordsDiffer: 'Passwords do not match',
  newPasswordsDiffer: 'New passwords do not match',
  resetTokenInvalid: 'Invalid reset token',
  termsRequired: 'You must accept the terms and conditions',
} as const;

export const email = text('Email', { max: 254, requiredMessage: messages.emailRequired }).pipe(z.email(messages.emailInvalid));

export const username = text('Username', { max: 150, requiredMessage: messages.usernameRequired })
  .min(3, messages.usernameShort)
  .regex(/^[\w.@+-]+$/, 'Username may contain only letters, digits and @ . + - _');

const PASSWORD_MAX = 128;

/** Registration and reset passwords: 8+ characters with upper, lower and a digit. */
export const strongPassword = secret('Password', PASSWORD_MAX, messages.passwordRequired)
  .min(8, messages.passwordShort)
  .refine((p) => /[a-z]/.test(p) && /[A-Z]/.test(p) && /\d/.test(p), messages.passwordWeak);

const confirmation = secret('Password confirmation', PASSWORD_MAX, messages.confirmRequired);

export const RegisterRequest = z
  .object({ email, username, password: strongPassword, password_confirm: confirmation })
  .refine((r) => r.password === r.password_confirm, { path: ['password_confirm'], message: messages.passwordsDiffer });
export type RegisterRequest = z.input<typeof RegisterRequest>;

export const LoginRequest = z.object({
  email,
  password: secret('Password', PASSWORD_MAX, messages.passwordRequired).min(6, messages.loginPasswordShort),
  hardware_fingerprint: text('Hardware fingerprint', { max: 256 }).default('web-browser'),
});
export type LoginRequest = z.input<typeof LoginRequest>;

/** Refresh tokens are opaque to clients; one that is malformed is simply not a session (401). */
const refreshToken = (label: string) => text(label, { max: 512, requiredMessage: `${label} is required` });
export const RefreshRequest = z.object({ refresh: refreshToken('Refresh token') });
export const LogoutRequest = z.object({ refresh_token: refreshToken('Refresh token').optional() });

export const ProfileUpdate = z
  .object({
    username: username.optional(),
    email: email.optional(),
    first_name: text('First name', { max: 150, required: false }).optional(),
    last_name: text('Last name', { max: 150, required: false }).optional(),
  })
  .strict();
export type ProfileUpdate = z.input<typeof ProfileUpdate>;

export const ChangePasswordRequest = z.object({
  old_password: secret('Current password', PASSWORD_MAX, 'Current password is required'),
  new_password: strongPassword,
});
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

export const PasswordResetRequest = z.object({ email });
export type PasswordResetRequest = z.input<typeof PasswordResetRequest>;

export const PasswordResetConfirm = z
  .object({
    token: text('Reset token', { max: 512, requiredMessage: messages.resetTokenInvalid }),
    password: strongPassword,
    password_confirm: confirmation,
  })
  .refine((r) => r.password === r.password_confirm, { path: ['password_confirm'], message: messages.passwordsDiffer });
export type PasswordResetConfirm = z.input<typeof PasswordResetConfirm>;

/** The user object of spec section 3, as every account call returns it. */
export const User = z
  .object({
    id: z.uuid(),
    username: z.string(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    subscription_plan: z.string(),
    max_clients: z.number().int(),
    allowed_models: z.array(z.string()),
    created_at: timestamp,
    is_staff: z.boolean(),
    /** Read-only staff: the console's read screens, audit and analytics, no changes. */
    is_auditor: z.boolean(),
  })
  .meta({ id: 'User' });
export type User = z.output<typeof User>;

export const TokenPair = z.object({ access: z.string(), refresh: z.string() }).meta({ id: 'TokenPair' });
export type TokenPair = z.output<typeof TokenPair>;

/** Register and login answer with both tokens and the user. */
export const AuthResponse = z.object({ tokens: TokenPair, user: User }).meta({ id: 'AuthResponse' });
export type AuthResponse = z.output<typeof AuthResponse>;

/** Refresh rotates: a new refresh token comes with the access token; the old one is spent. */
export const RefreshResponse = z.object({ access: z.string(), refresh: z.string() }).meta({ id: 'RefreshResponse' });
export type RefreshResponse = z.output<typeof RefreshResponse>;

import { z } from 'zod';
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

export const email = z
  .string({ error: messages.emailRequired })
  .trim()
  .min(1, messages.emailRequired)
  .pipe(z.email(messages.emailInvalid).max(254, messages.emailInvalid));

const username = z
  .string({ error: messages.usernameRequired })
  .trim()
  .min(1, messages.usernameRequired)
  .min(3, messages.usernameShort)
  .max(150, 'Username must be at most 150 characters')
  .regex(/^[\w.@+-]+$/, 'Username may contain only letters, digits and @ . + - _');

/** Registration and reset passwords: 8+ characters with upper, lower and a digit. */
export const strongPassword = z
  .string({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .min(8, messages.passwordShort)
  .max(128, 'Password must be at most 128 characters')
  .refine((p) => /[a-z]/.test(p) && /[A-Z]/.test(p) && /\d/.test(p), messages.passwordWeak);

const confirmation = z.string({ error: messages.confirmRequired }).min(1, messages.confirmRequired);

export const RegisterRequest = z
  .object({ email, username, password: strongPassword, password_confirm: confirmation })
  .refine((r) => r.password === r.password_confirm, { path: ['password_confirm'], message: messages.passwordsDiffer });
export type RegisterRequest = z.input<typeof RegisterRequest>;

export const LoginRequest = z.object({
  email,
  password: z.string({ error: messages.passwordRequired }).min(1, messages.passwordRequired).min(6, messages.loginPasswordShort).max(128),
  hardware_fingerprint: z.string().trim().min(1).max(256).default('web-browser'),
});
export type LoginRequest = z.input<typeof LoginRequest>;

export const RefreshRequest = z.object({ refresh: z.string({ error: 'Refresh token is required' }).min(1, 'Refresh token is required') });
export const LogoutRequest = z.object({ refresh_token: z.string().min(1).optional() });

export const ProfileUpdate = z
  .object({
    username: username.optional(),
    email: email.optional(),
    first_name: z.string().trim().max(150).optional(),
    last_name: z.string().trim().max(150).optional(),
  })
  .strict();
export type ProfileUpdate = z.input<typeof ProfileUpdate>;

export const ChangePasswordRequest = z.object({
  old_password: z.string({ error: 'Current password is required' }).min(1, 'Current password is required'),
  new_password: strongPassword,
});
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

export const PasswordResetRequest = z.object({ email });
export type PasswordResetRequest = z.input<typeof PasswordResetRequest>;

export const PasswordResetConfirm = z
  .object({
    token: z.string({ error: messages.resetTokenInvalid }).min(1, messages.resetTokenInvalid),
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

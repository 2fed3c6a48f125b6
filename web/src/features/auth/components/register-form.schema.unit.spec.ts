import { describe, expect, it } from 'vitest';
import { RegisterForm } from './register-form.schema';

function messagesFor(input: Record<string, unknown>): Record<string, string | undefined> {
  const result = RegisterForm.safeParse(input);
  if (result.success) return {};
  const byField: Record<string, string | undefined> = {};
  for (const issue of result.error.issues) byField[String(issue.path[0])] ??= issue.message;
  return byField;
}

const valid = { email: 'ada@example.com', username: 'ada', password: 'Secret123', confirmPassword: 'Secret123', terms: true };

describe('register form', () => {
  it('shows the spec messages on an empty submission', () => {
    expect(messagesFor({ email: '', username: '', password: '', confirmPassword: '', terms: false })).toEqual({
      email: 'Email is required',
      username: 'Username is required',
      password: 'Password is required',
      confirmPassword: 'Please confirm your password',
      terms: 'You must accept the terms and conditions',
    });
  });

  it('checks email shape, username length and password strength', () => {
    expect(messagesFor({ ...valid, email: 'not-an-email', username: 'ab', password: 'short', confirmPassword: 'short' })).toEqual({
      email: 'Invalid email address',
      username: 'Username must be at least 3 characters',
      password: 'Password must be at least 8 characters',
    });
    expect(messagesFor({ ...valid, password: 'alllowercase1', confirmPassword: 'alllowercase1' })).toEqual({
      password: 'Password must contain uppercase, lowercase and number',
    });
  });

  it('reports a mismatched confirmation even while another field is still wrong', () => {
    expect(messagesFor({ ...valid, email: '', confirmPassword: 'Different123' })).toEqual({
      email: 'Email is required',
      confirmPassword: 'Passwords do not match',
    });
  });

  it('accepts a complete form', () => {
    expect(RegisterForm.safeParse(valid).success).toBe(true);
  });
});

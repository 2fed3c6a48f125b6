import { messages, PasswordResetConfirm } from '@meshwork/contracts';
import { z } from 'zod';
import { whenBothFilled } from '../../../shared/forms/when-both-filled';

// The contract's password rules; the form names the confirmation confirmPassword.
const { password, password_confirm } = PasswordResetConfirm.shape;
export const NewPasswordForm = z
  .object({ password, confirmPassword: password_confirm })
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    message: messages.passwordsDiffer,
    when: whenBothFilled('password', 'confirmPassword'),
  });
export type ResetInput = z.input<typeof NewPasswordForm>;
export type ResetOutput = z.output<typeof NewPasswordForm>;

import { PasswordResetConfirm } from '@meshwork/contracts';
import { z } from 'zod';
import { confirmationDiffers, repeatsPassword } from './password-confirmation';

// The contract's password rules; the form names the confirmation confirmPassword.
const { password, password_confirm } = PasswordResetConfirm.shape;
export const NewPasswordForm = z.object({ password, confirmPassword: password_confirm }).refine(repeatsPassword, confirmationDiffers);
export type ResetInput = z.input<typeof NewPasswordForm>;
export type ResetOutput = z.output<typeof NewPasswordForm>;

import { messages } from '@meshwork/contracts';
import { whenBothFilled } from '../../../shared/forms/when-both-filled';

/** The auth forms' confirmation field repeats the password: `.refine(repeatsPassword, confirmationDiffers)`. */
export const repeatsPassword = (form: { password: string; confirmPassword: string }) => form.password === form.confirmPassword;

export const confirmationDiffers = {
  path: ['confirmPassword'],
  message: messages.passwordsDiffer,
  when: whenBothFilled('password', 'confirmPassword'),
};

import { messages, RegisterRequest } from '@meshwork/contracts';
import { z } from 'zod';
import { confirmationDiffers, repeatsPassword } from './password-confirmation';

// The contract's fields; the form names the confirmation confirmPassword and adds the terms box.
const { email, username, password, password_confirm } = RegisterRequest.shape;
export const RegisterForm = z
  .object({
    email,
    username,
    password,
    confirmPassword: password_confirm,
    terms: z.boolean().refine((accepted) => accepted, messages.termsRequired),
  })
  .refine(repeatsPassword, confirmationDiffers);
export type RegisterInput = z.input<typeof RegisterForm>;
export type RegisterOutput = z.output<typeof RegisterForm>;

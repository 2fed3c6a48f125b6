import { messages, RegisterRequest } from '@meshwork/contracts';
import { z } from 'zod';
import { whenBothFilled } from '../../../shared/forms/when-both-filled';

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
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    message: messages.passwordsDiffer,
    when: whenBothFilled('password', 'confirmPassword'),
  });
export type RegisterInput = z.input<typeof RegisterForm>;
export type RegisterOutput = z.output<typeof RegisterForm>;

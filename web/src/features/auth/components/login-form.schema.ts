import { LoginRequest } from '@meshwork/contracts';
import type { z } from 'zod';

// The contract's schema, less the fingerprint the site fills in itself.
export const LoginForm = LoginRequest.pick({ email: true, password: true });
export type LoginInput = z.input<typeof LoginForm>;
export type LoginOutput = z.output<typeof LoginForm>;

// Types for http-accounts.cjs, for the TypeScript tests that load it.
import type { AuthResponse } from '@meshwork/contracts';

export declare function callApi<T = unknown>(apiBase: string, path: string, token: string | null, body?: object): Promise<T>;
export declare function registerOverHttp(apiBase: string, username: string, password: string): Promise<AuthResponse>;
export declare function subscribeOverHttp(apiBase: string, accessToken: string, planId: string): Promise<void>;

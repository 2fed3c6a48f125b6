import { z } from 'zod';
import { integer, text } from '../common/fields';
import { timestamp } from '../http/http.contract';

/**
 * Long-lived API tokens (issue 35): `mw_live_<43 base62 characters of 256 random bits><6
 * base62 characters of their CRC32>`, so secret scanners find them by prefix and check the
 * suffix without asking us. The secret is shown once, at creation; the api keeps its hash.
 */
export const API_TOKEN_PREFIX = 'mw_live_';

/** The shape of a token, for the site's copy box and scanners (the checksum is checked by the api). */
export const API_TOKEN_PATTERN = /^mw_live_[0-9A-Za-z]{49}$/;

/** What a token may do: `read` is GET and HEAD only. The plan's api_token_scope narrows it on every request. */
export const ApiTokenScope = z.enum(['read', 'read_write'], { error: "Scope must be 'read' or 'read_write'" });
export type ApiTokenScope = z.output<typeof ApiTokenScope>;

/** POST /users/api-tokens/ */
export const CreateApiTokenRequest = z.object({
  name: text('Name', { max: 80 }),
  scope: ApiTokenScope,
  expires_in_days: integer('Expiry', { min: 1, max: 3650 }).nullable().default(null).meta({
    description: 'Days until the token stops working; null or left out: it never expires.',
  }),
});
export type CreateApiTokenRequest = z.input<typeof CreateApiTokenRequest>;

/** A token as its owner and staff see it: never its secret. */
export const ApiToken = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.literal(API_TOKEN_PREFIX),
    last_four: z.string().meta({ description: 'The last four characters of the secret, to tell tokens apart.' }),
    scope: ApiTokenScope,
    created_at: timestamp,
    last_used_at: timestamp.nullable().meta({ description: 'Updated at most once a minute.' }),
    expires_at: timestamp.nullable(),
    revoked_at: timestamp.nullable(),
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.output<typeof ApiToken>;

/** The answer to creating a token: the only time its secret is shown. */
export const CreatedApiToken = ApiToken.extend({
  token: z.string().meta({ description: 'The secret, shown this once: `Authorization: Bearer mw_live_…`.' }),
}).meta({ id: 'CreatedApiToken' });
export type CreatedApiToken = z.output<typeof CreatedApiToken>;

/** GET /users/api-tokens/: the caller's unrevoked tokens and what their plan allows now. */
export const ApiTokenList = z
  .object({
    tokens: z.array(ApiToken),
    plan_scope: z.enum(['none', 'read', 'read_write']).meta({ description: "The widest scope the caller's plan allows now." }),
    requests_per_minute: z.number().int().meta({ description: "Each token's rate on the caller's plan." }),
  })
  .meta({ id: 'ApiTokenList' });
export type ApiTokenList = z.output<typeof ApiTokenList>;

/** GET /admin-panel/users/{id}/api-tokens/: a user's tokens, revoked ones included, never their secrets. */
export const AdminApiTokenList = z.object({ tokens: z.array(ApiToken) }).meta({ id: 'AdminApiTokenList' });
export type AdminApiTokenList = z.output<typeof AdminApiTokenList>;

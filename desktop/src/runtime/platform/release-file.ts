import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { EntitlementPublicKey } from '@meshwork/contracts';

/** A release file is a few lines; anything larger is not one. */
const MAX_BYTES = 16 * 1024;

/** An http(s) origin and nothing more: no path, query, fragment or credentials. */
const Origin = z.string().refine((text) => {
  try {
    const url = new URL(text);
    return /^https?:$/.test(url.protocol) && url.origin === text.replace(/\/$/, '');
  } catch {
    return false;
  }
}, "origin must be the site's http(s) origin, such as https://meshwork.example");

/**
 * `release.json`, which the site writes into the app it serves: the site the app came from (so
 * it needs no --api), its version and platform, and the platform's entitlement keys (what the
 * site's GET /api/v1/devices/keys/ published when it built the app): the host's root of trust,
 * which no file in its data folder can replace. It sits beside the app's package.json, where a
 * user or another program may have changed it, so it is checked like any outside input.
 */
export const Release = z.object({
  origin: Origin.transform((origin) => origin.replace(/\/$/, '')).nullable(),
  version: z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'version must be a version such as 0.1.0'),
  platform: z.enum(['linux', 'windows']),
  /** Null in a release built without keys: it pins the api's keys at first sign-in, as a copy run from the sources does. */
  keys: z
    .object({ keys: z.array(EntitlementPublicKey, { error: 'keys.keys must be a list of Ed25519 public keys' }).min(1).max(20) })
    .nullable()
    .default(null),
});
export type Release = z.output<typeof Release>;

/** The release's file in the app's package folder (the folder holding its package.json). */
export function releaseFilePath(packageDir: string): string {
  return join(packageDir, 'release.json');
}

/** The release, from its text; an Error that says what is wrong when the text is not one. */
export function parseRelease(text: string, path: string): Release {
  const damaged = (why: string) =>
    // No way around it, --api included: the file holds the keys this app trusts for the plan.
    new Error(`${path} is damaged (${why}): install Meshwork again from your site.`);
  if (Buffer.byteLength(text) > MAX_BYTES) throw damaged(`larger than ${MAX_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw damaged('not JSON');
  }
  const parsed = Release.safeParse(value);
  if (!parsed.success)
    throw damaged(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'the file'}: ${issue.message}`).join('; '));
  return parsed.data;
}

/** The release this app was installed from, or null where there is none (a source checkout). */
export function readRelease(packageDir: string): Release | null {
  const path = releaseFilePath(packageDir);
  let text: string;
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${path} cannot be read (${(error as Error).message}).`);
  }
  try {
    // Read no more than a release file can hold, whatever the file's size.
    const buffer = Buffer.alloc(Math.min(fstatSync(descriptor).size, MAX_BYTES + 1));
    text = buffer.subarray(0, readSync(descriptor, buffer)).toString('utf8');
  } catch (error) {
    throw new Error(`${path} cannot be read (${(error as Error).message}).`);
  } finally {
    closeSync(descriptor);
  }
  return parseRelease(text, path);
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { request } from 'node:http';
import { z } from 'zod';

/**
 * How a second start reaches the running instance of its data directory, over loopback. The
 * caller proves it read the instance file (it sends the secret as a bearer token) and the
 * instance proves it wrote it (an HMAC of the caller's nonce under the same secret), so a
 * program that took a dead instance's port cannot pass itself off as Meshwork.
 */
export const INSTANCE_CODE_PATH = '/host/instance/code';
export const InstanceCodeRequest = z.object({ nonce: z.string().regex(/^[\w-]{43}$/) });
export const InstanceCodeAnswer = z.object({ code: z.string().regex(/^[\w-]{1,128}$/), proof: z.string().regex(/^[\w-]{43}$/) });

/** An instance that has not answered by then is not answering. */
const ANSWER_TIMEOUT_MS = 3000;

export function instanceProof(secret: string, nonce: string): string {
  return createHmac('sha256', secret).update(`meshwork-instance:${nonce}`).digest('base64url');
}

/** A one-time code for the window of the instance listening on `port`, or null when it does not answer as that instance. */
export async function askInstanceForCode(port: number, secret: string): Promise<string | null> {
  const nonce = randomBytes(32).toString('base64url');
  const answer = await postLoopback(port, INSTANCE_CODE_PATH, secret, JSON.stringify({ nonce }));
  if (answer === null) return null;
  const parsed = InstanceCodeAnswer.safeParse(answer);
  if (!parsed.success) return null;
  const expected = Buffer.from(instanceProof(secret, nonce));
  const given = Buffer.from(parsed.data.proof);
  return given.length === expected.length && timingSafeEqual(given, expected) ? parsed.data.code : null;
}

/** POSTs JSON to 127.0.0.1:`port` (no pooled connection, so the caller can exit at once); the JSON answer to a 200, else null. */
function postLoopback(port: number, path: string, secret: string, body: string): Promise<unknown> {
  return new Promise((resolve) => {
    const call = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        timeout: ANSWER_TIMEOUT_MS,
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > 4096) return call.destroy();
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (response.statusCode !== 200) return resolve(null);
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            resolve(null);
          }
        });
        response.on('error', () => resolve(null));
        response.on('close', () => resolve(null)); // cut short: no answer (after 'end' this changes nothing)
      },
    );
    call.on('timeout', () => call.destroy());
    call.on('error', () => resolve(null));
    call.end(body);
  });
}

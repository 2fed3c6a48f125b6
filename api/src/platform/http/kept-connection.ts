import type { ClientRequest } from 'node:http';

/**
 * Whether `error` is how a request fails on a kept (keep-alive) connection that the server
 * closed just as the request went out: a reset or a broken pipe on a reused socket, before any
 * answer. Servers close idle connections without warning (MinIO after 30 s), so a client that
 * keeps connections meets this now and then; a new connection cures it.
 */
export function closedUnderneath(request: ClientRequest, error: NodeJS.ErrnoException): boolean {
  return request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
}

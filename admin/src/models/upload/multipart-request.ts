import { HttpError } from 'react-admin';
import { refreshSession } from '../../auth/http-client';
import { tokens } from '../../auth/tokens';

export interface MultipartOptions {
  /** Bytes sent over bytes to send, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

interface Answer {
  status: number;
  statusText: string;
  body: unknown;
}

function send(url: string, form: FormData, { onProgress, signal }: MultipartOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.responseType = 'text';
    const token = tokens.getAccess();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      let body: unknown = null;
      try {
        body = request.responseText ? JSON.parse(request.responseText) : null;
      } catch {
        body = request.responseText;
      }
      resolve({ status: request.status, statusText: request.statusText, body });
    };
    // As fetch does: a dropped connection is a TypeError, a cancel an AbortError.
    request.onerror = () => reject(new TypeError('Network request failed'));
    request.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    if (signal?.aborted) request.abort();
    else request.send(form);
  });
}

const messageOf = (body: unknown, fallback: string): string =>
  typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : fallback;

/**
 * POST a multipart form with the staff's bearer token, reporting upload progress (fetch
 * cannot). Like the console's other calls, a first 401 refreshes the token once and sends
 * again. A refusal rejects with react-admin's HttpError carrying the server's body.
 */
export async function postMultipart<T>(url: string, form: FormData, options: MultipartOptions = {}): Promise<T> {
  const sent = tokens.getAccess();
  let answer = await send(url, form, options);
  if (answer.status === 401) {
    const current = tokens.getAccess();
    if ((current !== null && current !== sent) || (await refreshSession())) answer = await send(url, form, options);
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw new HttpError(messageOf(answer.body, answer.statusText), answer.status, answer.body);
  }
  return answer.body as T;
}

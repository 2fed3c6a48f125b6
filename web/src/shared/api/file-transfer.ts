/** Reading a file answer as it arrives: its size, its name, and how far along it is. */

/** Bytes received so far against the expected total. */
export interface TransferProgress {
  received: number;
  /** From Content-Length; null when the server did not say. */
  total: number | null;
  /** 0 to 100, or null when the total is unknown (an indeterminate bar). */
  percent: number | null;
}

/**
 * Whole percent received. It stops at 99 until the body has ended, so 100 always means the
 * whole file is here (a compressed answer's Content-Length can be smaller than its bytes).
 */
export function transferPercent(received: number, total: number | null): number | null {
  if (total === null || !Number.isFinite(total) || total <= 0) return null;
  return Math.min(99, Math.floor((received / total) * 100));
}

/** Content-Length as a number, or null when missing or not a size. */
export function contentLength(headers: Headers): number | null {
  const value = headers.get('Content-Length');
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value);
}

/**
 * The file name of `Content-Disposition: attachment; filename="…"`, preferring RFC 5987's
 * `filename*=UTF-8''…`. Null when there is none; any path is stripped, so a server cannot
 * choose a folder.
 */
export function attachmentFileName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  let name: string | undefined;
  if (extended) {
    try {
      name = decodeURIComponent(extended.trim());
    } catch {
      name = undefined;
    }
  }
  name ??= /filename\s*=\s*(?:"([^"]*)"|([^;]+))/
    .exec(header)
    ?.slice(1)
    .find((part) => part !== undefined);
  const base = name?.trim().split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

/**
 * Reads a response body to the end, reporting progress after every chunk, and returns the
 * bytes as a Blob; fewer bytes than Content-Length is an error. Without a body (some test
 * doubles) it falls back to `response.blob()`.
 */
export async function readWithProgress(response: Response, onProgress: (progress: TransferProgress) => void): Promise<Blob> {
  const total = contentLength(response.headers);
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  onProgress({ received, total, percent: transferPercent(received, total) });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress({ received, total, percent: transferPercent(received, total) });
  }
  // A dropped connection can end the stream quietly; a short file must not be saved as if whole.
  if (total !== null && received < total) throw new Error(`The file was not received completely (${received} of ${total} bytes)`);
  return new Blob(chunks, { type });
}

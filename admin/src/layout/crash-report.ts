import type { ConsoleErrorReport } from '@meshwork/contracts';
import { authorizedFetch } from '../auth/http-client';
import { API_BASE } from '../auth/site-urls';

/**
 * A fresh error id (a v4 UUID). crypto.randomUUID exists only on secure origins; a console
 * served over plain http still gets one from getRandomValues.
 */
export function newErrorId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// The api refuses control characters (line breaks and tabs are allowed in multi-line fields) and lone surrogates.
// eslint-disable-next-line no-control-regex
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text the api takes as it is: no characters it refuses, trimmed, and cut to `max` without splitting a character. */
function clean(value: string, max: number, multiline = false): string {
  const plain = value.replace(multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE, ' ').trim();
  return plain.slice(0, max).replace(LONE_SURROGATE, '\uFFFD').trim();
}

export interface Crash {
  errorId: string;
  screen: string;
  error: unknown;
  /** React's component stack: where in the screen it broke. */
  componentStack?: string | null;
  url: string;
}

/** The report of a crash, within the limits of POST /admin-panel/console-errors/. */
export function crashReportOf({ errorId, screen, error, componentStack, url }: Crash): ConsoleErrorReport {
  const thrown = error instanceof Error ? error : null;
  const message = clean(thrown ? `${thrown.name}: ${thrown.message}` : String(error), 2000) || 'Unknown error';
  const stack = [thrown?.stack, componentStack ? `Component stack:${componentStack}` : null].filter(Boolean).join('\n\n');
  return { error_id: errorId, screen: clean(screen, 100) || 'unknown', message, stack: clean(stack, 20_000, true), url: clean(url, 2000) };
}

/**
 * Sends the report, best effort: the crash screen shows its error id whether or not this
 * arrives, and a failure here (offline, signed out) is only written to the browser's console.
 */
export async function reportCrash(report: ConsoleErrorReport): Promise<void> {
  try {
    await authorizedFetch(`${API_BASE}/admin-panel/console-errors/`, { method: 'POST', body: JSON.stringify(report) });
  } catch (failure) {
    console.error('The crash report could not be sent', report.error_id, failure);
  }
}

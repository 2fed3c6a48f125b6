import type { WebhookDelivery, WebhookEndpoint } from '@meshwork/contracts';

/** How each delivery status reads in the log, and the colour of its badge. */
export const deliveryStatusLook: Record<WebhookDelivery['status'], { label: string; classes: string }> = {
  succeeded: { label: 'Succeeded', classes: 'bg-green-100 text-green-800 dark:bg-green-950/60 dark:text-green-300' },
  failed: { label: 'Failed', classes: 'bg-red-100 text-red-800 dark:bg-red-950/60 dark:text-red-300' },
  retrying: { label: 'Retrying', classes: 'bg-amber-100 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200' },
  pending: { label: 'Pending', classes: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300' },
};

/** Why the api turned an endpoint off (`disabled_reason`), in words; a code it has not named reads as itself. */
const disabledBecause: Readonly<Record<string, string>> = {
  failing: 'its deliveries kept failing',
  plan: 'your plan no longer includes webhooks',
};

/** An endpoint's state in words: on, off by the customer, or off by the api (with the reason why). */
export function endpointState(endpoint: Pick<WebhookEndpoint, 'enabled' | 'disabled_reason'>): { label: string; detail: string | null } {
  if (endpoint.enabled) return { label: 'Enabled', detail: null };
  const reason = endpoint.disabled_reason;
  if (!reason || reason === 'user') return { label: 'Disabled', detail: null };
  return { label: 'Disabled automatically', detail: disabledBecause[reason] ?? reason };
}

/** The answer's status code, or what happened instead when none came (a timeout, a refused connection). */
export function responseSummary(delivery: Pick<WebhookDelivery, 'response_status' | 'error' | 'status'>): string {
  if (delivery.response_status !== null) return String(delivery.response_status);
  if (delivery.error) return delivery.error;
  return delivery.status === 'pending' ? 'Not sent yet' : 'No answer';
}

/** Milliseconds as a person reads them: "84 ms", "1.2 s", or a dash before the first attempt. */
export function formatLatency(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A moment of the log, to the second, in the visitor's zone: deliveries are told apart by it. */
export function formatMoment(iso: string | null): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '—';
  return date.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** How many pages the log has at `pageSize` a page: one at least, so an empty log still has its page. */
export function pageCount(count: number, pageSize: number): number {
  if (count <= 0 || pageSize <= 0) return 1;
  return Math.ceil(count / pageSize);
}

/** A request body as sent, indented when it is JSON (it always should be) and as it came otherwise. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

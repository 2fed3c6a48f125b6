/// <reference lib="dom" />
import type { Page } from 'playwright-core';

/** Chromium's console lines for anything a Content-Security-Policy or Permissions-Policy refused. */
const REFUSAL = /Refused to|Content[ -]Security[ -]Policy|Permissions[ -]Policy/i;

/**
 * Records everything the page's policies refuse from now on, across navigations: each
 * `securitypolicyviolation` event (directive and blocked URI) and each console line Chromium
 * writes about a refusal (some, such as a bad Permissions-Policy, raise no event).
 * Returns the list, which grows as the page runs; a page that works within its policy leaves it empty.
 */
export async function recordPolicyRefusals(page: Page): Promise<string[]> {
  const refusals: string[] = [];
  await page.exposeBinding('__reportPolicyViolation', (_source, text: string) => void refusals.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportPolicyViolation(text: string): void }).__reportPolicyViolation;
      report(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'} on ${event.documentURI}`);
    });
  });
  page.on('console', (message) => {
    if (REFUSAL.test(message.text())) refusals.push(message.text());
  });
  return refusals;
}

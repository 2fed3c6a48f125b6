/// <reference lib="dom" />
import type { Page } from 'playwright-core';

/**
 * A text that appeared on a page: the element holding it, where (the name of the region
 * around it, and whether a live region or alert announced it), and whether it was rendered
 * visible when it came.
 */
export interface Appearance {
  text: string;
  region: string | null;
  announced: boolean;
  visible: boolean;
}

declare global {
  interface Window {
    __appeared?: (appearances: Appearance[]) => Promise<void>;
  }
}

const recorders = new WeakMap<Page, { seen: Appearance[]; changed: Set<() => void> }>();

/**
 * Keeps, in the test, a record of every text a tab shows from its first byte, across page
 * loads: a toast that stays two seconds, or a screen that moves on by itself, is then found by
 * `waitForAppearance` however late the test looks, on a loaded machine as on an idle one.
 * Call before the tab's first `goto`.
 */
export async function recordAppearances(page: Page): Promise<void> {
  const recorder = { seen: [] as Appearance[], changed: new Set<() => void>() };
  recorders.set(page, recorder);
  await page.exposeBinding('__appeared', (_source, appearances: Appearance[]) => {
    recorder.seen.push(...appearances);
    for (const listener of recorder.changed) listener();
  });
  await page.addInitScript(() => {
    const regionName = (element: Element): string | null => {
      const region = element.closest('[role=region], section[aria-label], section[aria-labelledby]');
      const labelledBy = region?.getAttribute('aria-labelledby');
      const label = labelledBy ? document.getElementById(labelledBy)?.textContent : region?.getAttribute('aria-label');
      return label?.trim() || null;
    };
    const appearance = (element: Element): Appearance => ({
      text: (element.textContent ?? '').replace(/\s+/g, ' ').trim(),
      region: regionName(element),
      announced: element.closest('[aria-live]:not([aria-live=off]), [role=status], [role=alert]') !== null,
      visible: element.isConnected && element.checkVisibility(),
    });
    /** The elements under `node` (itself included) that hold text of their own. */
    const holders = (node: Node, into: Set<Element>): void => {
      if (node.nodeType === Node.TEXT_NODE && node.parentElement && node.textContent?.trim()) into.add(node.parentElement);
      node.childNodes.forEach((child) => holders(child, into));
    };
    new MutationObserver((mutations) => {
      const found = new Set<Element>();
      for (const mutation of mutations)
        if (mutation.type === 'characterData') holders(mutation.target, found);
        else mutation.addedNodes.forEach((node) => holders(node, found));
      if (found.size > 0) void window.__appeared?.([...found].map(appearance));
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * Waits until `text` has appeared visible in the tab (in the region named `region`, or
 * announced by a live region or alert, when asked) at some moment since `recordAppearances`,
 * whether or not it is still there: it waits on the record, which lasts, not on the message.
 */
export async function waitForAppearance(
  page: Page,
  text: string,
  where: { region?: string; announced?: boolean } = {},
  timeoutMs = 30_000,
): Promise<void> {
  const recorder = recorders.get(page);
  if (!recorder) throw new Error('call recordAppearances(page) before the page loads');
  const matches = (seen: Appearance) =>
    seen.visible &&
    seen.text.includes(text) &&
    (where.region === undefined || seen.region === where.region) &&
    (!where.announced || seen.announced);
  if (recorder.seen.some(matches)) return;
  await new Promise<void>((resolve, reject) => {
    const stop = () => {
      recorder.changed.delete(check);
      clearTimeout(timer);
    };
    const check = () => {
      if (!recorder.seen.some(matches)) return;
      stop();
      resolve();
    };
    const timer = setTimeout(() => {
      stop();
      const near = recorder.seen.filter((seen) => seen.text.includes(text));
      reject(new Error(`"${text}" did not appear ${JSON.stringify(where)} within ${timeoutMs} ms; where it did: ${JSON.stringify(near)}`));
    }, timeoutMs);
    recorder.changed.add(check);
  });
}

/**
 * Every text recorded so far in the tab that includes `text`, visible when it came: for what a
 * test checks appeared once, or never, after waiting on what shows the moment has passed.
 */
export function appearancesOf(page: Page, text: string): Appearance[] {
  const recorder = recorders.get(page);
  if (!recorder) throw new Error('call recordAppearances(page) before the page loads');
  return recorder.seen.filter((seen) => seen.visible && seen.text.includes(text));
}

import { holdEarlyInput } from './app/early-input';
import './index.css';

/** Resolves once the browser has painted the page's content, or after a second where it cannot say. */
function afterFirstContentfulPaint(): Promise<void> {
  return new Promise((resolve) => {
    let observer: PerformanceObserver | undefined;
    const done = () => {
      observer?.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, 1000);
    try {
      observer = new PerformanceObserver((entries) => {
        if (entries.getEntriesByName('first-contentful-paint').length > 0) done();
      });
      observer.observe({ type: 'paint', buffered: true });
    } catch {
      done();
    }
  });
}

/**
 * A prerendered page is whole before any script runs, so its script waits until the page has
 * painted: on a slow connection it would otherwise take bandwidth from the stylesheet and font.
 * It is then evaluated in two parts, each in a task of its own, so a phone can answer input
 * between them instead of freezing for the whole script at once: React DOM, then the site
 * (app/start.tsx). Both are fetched at once; React DOM, the smaller graph, arrives and runs first.
 */
async function main(): Promise<void> {
  const prerendered = document.getElementById('root')?.hasChildNodes() ?? false;
  // Buttons pressed and forms sent until then are held (app/early-input.ts).
  const earlyInput = prerendered ? holdEarlyInput(document) : undefined;
  if (prerendered) await afterFirstContentfulPaint();
  const reactDom = import('react-dom/client');
  const site = import('./app/start');
  await reactDom;
  const { start } = await site;
  await start(earlyInput);
}

void main();

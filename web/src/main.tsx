import './index.css';

/**
 * The page is on screen already (the public pages are prerendered). Its script is evaluated in
 * two parts, each in a task of its own, so a phone can answer input between them instead of
 * freezing for the whole script at once: React DOM, then the site (app/start.tsx). Both are
 * fetched at once; React DOM, the smaller graph, arrives and runs first.
 */
async function main(): Promise<void> {
  const reactDom = import('react-dom/client');
  const site = import('./app/start');
  await reactDom;
  const { start } = await site;
  await start();
}

void main();

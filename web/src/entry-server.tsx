// The build's prerender (scripts/prerender.mjs) renders the public pages with this, in Node.
import './app/zod-without-eval';
import { Plan } from '@meshwork/contracts';
import { dehydrate, hashKey, type DehydratedState, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, type RouteObject, StaticRouterProvider } from 'react-router';
import { z } from 'zod';
import { SiteProviders } from './app/app';
import { PAGE_META, SITE_NAME } from './app/page-meta';
import { createQueryClient } from './app/query-client';
import { routes } from './app/routes';
import { billingQueryKeys } from './shared/billing/billing-query-keys';

export { PUBLIC_PAGES, PUBLIC_URL_PLACEHOLDER } from '@meshwork/contracts';
export { PAGE_META, SITE_NAME };

/** The patterns of `routes` and their children, as full paths; layouts add nothing of their own, the catch-all is left out. */
function pathsOf(routes: RouteObject[], parent: string): string[] {
  return routes.flatMap((route) => {
    if (route.path === '*') return [];
    const here = route.path === undefined ? parent : `${parent.replace(/\/$/, '')}/${route.path}`;
    const own = route.index || (route.path !== undefined && (route.element || route.lazy || route.Component)) ? [here || '/'] : [];
    return [...own, ...pathsOf(route.children ?? [], here)];
  });
}

/**
 * Every path the site has a page for, in React Router's syntax: the build writes them beside
 * the pages, and the api answers any other path with the not-found page and a 404 status.
 */
export const SITE_PATHS: string[] = pathsOf(routes, '');

/** A path no route but the catch-all takes: what the not-found page is rendered at. */
export const NOT_FOUND_SAMPLE_PATH = '/not-found';

/** What the build could read from a running api: raw answers, checked here like any outside value. */
export interface ApiAnswers {
  /** GET /api/v1/subscriptions/plans/ */
  plans?: unknown;
}

/** The reads a page may ask for that the build can answer, with the check each answer must pass. */
const ANSWERABLE: { queryKey: QueryKey; answer: (answers: ApiAnswers) => unknown; schema: z.ZodType }[] = [
  { queryKey: billingQueryKeys.plans, answer: (answers) => answers.plans, schema: z.array(Plan) },
];

export interface RenderedPage {
  /** The page's markup, for inside #root. */
  html: string;
  /** The api answers the page was rendered with, for the browser to start from (null: none). */
  state: DehydratedState | null;
}

/**
 * Renders one page as a visitor's first load would: signed out, light theme, and with the
 * api's answers where the page asks for one the build has (the plans on /pricing); a read
 * the build cannot answer renders as loading, as it would in the browser.
 */
export async function renderPage(pathname: string, answers: ApiAnswers = {}): Promise<RenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${pathname} answers with a redirect: it cannot be prerendered`);
  const render = (queryClient: QueryClient) =>
    renderToString(
      <SiteProviders queryClient={queryClient}>
        {/* No hydration script: the site's policy runs no inline script, and its routes load no data. */}
        <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
      </SiteProviders>,
    );

  // A first render shows which reads the page makes (each is in the cache, pending); those the build can answer are seeded and the page rendered again.
  const queryClient = createQueryClient();
  let html = render(queryClient);
  const asked = new Set(
    queryClient
      .getQueryCache()
      .getAll()
      .map((query) => query.queryHash),
  );
  const seeded = ANSWERABLE.filter(({ queryKey, answer }) => asked.has(hashKey(queryKey)) && answer(answers) !== undefined);
  if (seeded.length === 0) return { html, state: null };

  const seededClient = createQueryClient();
  for (const { queryKey, answer, schema } of seeded) seededClient.setQueryData(queryKey, schema.parse(answer(answers)));
  html = render(seededClient);
  const seededHashes = new Set(seeded.map(({ queryKey }) => hashKey(queryKey)));
  return { html, state: dehydrate(seededClient, { shouldDehydrateQuery: (query) => seededHashes.has(query.queryHash) }) };
}

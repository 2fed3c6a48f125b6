import type { NextFunction, Request, Response } from 'express';
import type { RouteInfo } from './openapi/route-table';

/** A route path in Express form as a regular expression; a trailing slash is optional, as Nest routes it. */
function pattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * A known path asked with a method it does not serve answers 405 with `Allow` (RFC 9110), in
 * the spec's error body, instead of Nest's 404; OPTIONS answers 204 with the same `Allow`.
 * Unknown paths are left to Nest's 404. Runs before the body parsers, so a wrong method is
 * reported as such whatever the body.
 */
export function methodNotAllowed(routes: readonly RouteInfo[], prefix: string) {
  const byPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    byPath.set(route.path, methods);
  }
  const known = [...byPath].map(([path, methods]) => ({ regex: pattern(path), methods, params: path.split(':').length - 1 }));
  const root = `/${prefix}/`;

  return (request: Request, response: Response, next: NextFunction): void => {
    if (!request.path.startsWith(root)) return next();
    const all = known.filter((k) => k.regex.test(request.path));
    if (all.length === 0) return next();
    // The most literal paths name the resource: `/admin-panel/models/audit` is the audit, not a model
    // whose id is "audit", so PATCH there is not allowed, though PATCH /admin-panel/models/:id is.
    const fewest = Math.min(...all.map((k) => k.params));
    const matching = all.filter((k) => k.params === fewest);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (matching.some((k) => k.methods.has(method) || k.methods.has('ALL'))) return next();
    const allowed = new Set(matching.flatMap((k) => [...k.methods]));
    if (allowed.has('GET')) allowed.add('HEAD');
    allowed.add('OPTIONS');
    const allow = [...allowed].sort().join(', ');
    response.setHeader('Allow', allow);
    if (request.method === 'OPTIONS') {
      response.status(204).end();
      return;
    }
    response.status(405).json({ message: `${request.method} is not allowed here. Allowed: ${allow}.` });
  };
}

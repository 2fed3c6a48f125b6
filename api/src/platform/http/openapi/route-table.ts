import { type INestApplication, RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';

/** One route the api serves, as Nest registers it. */
export interface RouteInfo {
  method: string;
  /** Express form, with the global prefix: `/api/v1/models/:name/manifest`. */
  path: string;
  controller: Type;
  handlerName: string;
  handler: (...args: unknown[]) => unknown;
  /** Which of the handler's paths this is (a handler may serve several, e.g. an old alias). */
  alias: number;
}

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [value === undefined ? '' : String(value)]);

function joinPath(...parts: string[]): string {
  const joined = `/${parts.join('/')}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/**
 * Every route of every controller, read from the same decorator metadata Nest routes by: the
 * OpenAPI document and the 405 answers are built from this one table, so neither can list a
 * route the api does not serve.
 */
export function routeTable(app: INestApplication, prefix: string): RouteInfo[] {
  const controllers = new Set<Type>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) if (wrapper.metatype) controllers.add(wrapper.metatype as Type);
  }
  const routes: RouteInfo[] = [];
  for (const controller of controllers) {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const handlerName of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[handlerName];
      if (handlerName === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      let alias = 0;
      for (const base of asList(Reflect.getMetadata(PATH_METADATA, controller)))
        for (const own of asList(Reflect.getMetadata(PATH_METADATA, handler)))
          routes.push({
            method: RequestMethod[method],
            path: joinPath(prefix, base, own),
            controller,
            handlerName,
            handler: handler as RouteInfo['handler'],
            alias: alias++,
          });
    }
  }
  return routes;
}

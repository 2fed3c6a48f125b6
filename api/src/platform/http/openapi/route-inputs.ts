import { ParseUUIDPipe } from '@nestjs/common';
import { GUARDS_METADATA, HTTP_CODE_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { z } from 'zod';
import { ListFilterPipe, ListQueryPipe } from '../react-admin-list';
import { ZodPipe } from '../validation';
import type { RouteInfo } from './route-table';

/** What a guard adds to every route it guards: a static `openApi` on the guard's class. */
export interface GuardAnswers {
  /** The route needs a bearer token. */
  bearer?: boolean;
  /** A signed-in session's token only: an API token is refused (issue 35). */
  sessionOnly?: boolean;
  errors: readonly number[];
}

/** How one handler argument is read and checked, from its decorator (`@Body(pipe)`, `@Param('id', pipe)`, ...). */
export interface RouteInput {
  from: 'body' | 'query' | 'param';
  /** The named field (`@Param('id')`), or undefined for the whole body, query or params. */
  name?: string;
  /** The zod schema that validates it (ZodPipe), if any. */
  schema?: z.ZodType;
  uuid: boolean;
  /** react-admin's list query (sort, range, filter), or just its filter. */
  list?: ListQueryPipe | ListFilterPipe;
}

const SOURCES: Partial<Record<RouteParamtypes, RouteInput['from']>> = {
  [RouteParamtypes.BODY]: 'body',
  [RouteParamtypes.QUERY]: 'query',
  [RouteParamtypes.PARAM]: 'param',
};

/** The body, query and params a handler reads, with the pipes that check them: what Nest runs, read back. */
export function routeInputs(route: RouteInfo): RouteInput[] {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.handlerName) ?? {}) as Record<
    string,
    { data?: unknown; pipes?: unknown[] }
  >;
  const inputs: RouteInput[] = [];
  for (const [key, arg] of Object.entries(args)) {
    const from = SOURCES[Number(key.split(':')[0]) as RouteParamtypes];
    if (!from) continue;
    const pipes = arg.pipes ?? [];
    inputs.push({
      from,
      name: typeof arg.data === 'string' ? arg.data : undefined,
      schema: pipes.find((p): p is ZodPipe<z.ZodType> => p instanceof ZodPipe)?.schema,
      uuid: pipes.some((p) => p === ParseUUIDPipe || p instanceof ParseUUIDPipe),
      list: pipes.find((p): p is ListQueryPipe | ListFilterPipe => p instanceof ListQueryPipe || p instanceof ListFilterPipe),
    });
  }
  return inputs;
}

/** The guards on the route's controller and handler, as they describe themselves. */
export function guardAnswers(route: RouteInfo): GuardAnswers[] {
  const guards = [
    ...((Reflect.getMetadata(GUARDS_METADATA, route.controller) ?? []) as unknown[]),
    ...((Reflect.getMetadata(GUARDS_METADATA, route.handler) ?? []) as unknown[]),
  ];
  return guards
    .map((guard) => (typeof guard === 'function' ? guard : (guard as object).constructor) as { openApi?: GuardAnswers })
    .flatMap((guard) => (guard.openApi ? [guard.openApi] : []));
}

/** The success status Nest answers with: `@HttpCode`, else 201 for POST and 200 otherwise. */
export function successStatus(route: RouteInfo): number {
  return (Reflect.getMetadata(HTTP_CODE_METADATA, route.handler) as number | undefined) ?? (route.method === 'POST' ? 201 : 200);
}

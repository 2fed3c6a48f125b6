import type { PipeTransform } from '@nestjs/common';
import { z } from 'zod';
import { text } from '@meshwork/contracts';
import { ValidationFailed } from './validation';

/**
 * ra-data-simple-rest's list dialect: `sort=["field","ASC"]`, `range=[0,24]`,
 * `filter={"q":"ann"}`; the answer carries `Content-Range: <resource> 0-24/319`.
 */
export interface ListQuery {
  sortField: string;
  sortOrder: 'ASC' | 'DESC';
  offset: number;
  limit: number;
  filter: Record<string, unknown>;
}

const Order = z.enum(['ASC', 'DESC']);
const Sort = z.tuple([text('Sort field', { max: 64 }), Order]);
const Range = z
  .tuple([z.number().int().min(0), z.number().int().min(0)])
  .refine(([a, b]) => b >= a && b - a < 1000, 'range spans at most 1000 rows');
/** Filter values reach SQL parameters: text is held to the same rules as any other input. */
const filterText = text('Filter', { max: 200, required: false });
const Filter = z.record(
  text('Filter name', { max: 64 }),
  z.union([filterText, z.number(), z.boolean(), z.null(), z.array(z.union([filterText, z.number()])).max(100)], {
    error: 'Filter values must be text, numbers, true or false',
  }),
);

function parseJson<T>(raw: unknown, schema: z.ZodType<T>, name: string, fallback: T): T {
  if (raw === undefined) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(String(raw));
  } catch {
    throw new ValidationFailed({ message: `${name} must be JSON`, errors: { [name]: [`${name} must be JSON`] } });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const message = `${name}: ${parsed.error.issues[0]!.message}`;
    throw new ValidationFailed({ message, errors: { [name]: [message] } });
  }
  return parsed.data;
}

/** Parses the list query, allowing only `sortable` fields to sort by. */
export function parseListQuery(
  query: Record<string, unknown>,
  sortable: readonly string[],
  defaultSort: [string, 'ASC' | 'DESC'],
): ListQuery {
  const [sortField, sortOrder] = parseJson(query.sort, Sort, 'sort', defaultSort);
  if (!sortable.includes(sortField)) {
    throw new ValidationFailed({ message: `Cannot sort by ${sortField}`, errors: { sort: [`sortable fields: ${sortable.join(', ')}`] } });
  }
  const [from, to] = parseJson(query.range, Range, 'range', [0, 24]);
  return { sortField, sortOrder, offset: from, limit: to - from + 1, filter: listFilter(query) };
}

/** Just the `filter` of a list query (lists that are always whole). */
export function listFilter(query: Record<string, unknown>): Record<string, unknown> {
  return parseJson(query.filter, Filter, 'filter', {});
}

/**
 * `@Query(new ListQueryPipe(sortable, defaultSort))`: the list query parsed and checked, and
 * described in the OpenAPI document from the same sortable fields.
 */
export class ListQueryPipe implements PipeTransform<Record<string, unknown>, ListQuery> {
  constructor(
    readonly sortable: readonly [string, ...string[]],
    readonly defaultSort: [string, 'ASC' | 'DESC'],
  ) {}

  transform(query: Record<string, unknown>): ListQuery {
    return parseListQuery(query, this.sortable, this.defaultSort);
  }

  /** The three JSON-encoded query parameters, as documented. */
  parameters(): Record<string, z.ZodType> {
    return { sort: z.tuple([z.enum(this.sortable), Order]), range: Range, filter: Filter };
  }
}

/** `@Query(new ListFilterPipe())`: just the filter, for lists that are always whole; documented so. */
export class ListFilterPipe implements PipeTransform<Record<string, unknown>, Record<string, unknown>> {
  transform(query: Record<string, unknown>): Record<string, unknown> {
    return listFilter(query);
  }

  parameters(): Record<string, z.ZodType> {
    return { filter: Filter };
  }
}

export function contentRange(resource: string, offset: number, count: number, total: number): string {
  return count === 0 ? `${resource} */${total}` : `${resource} ${offset}-${offset + count - 1}/${total}`;
}

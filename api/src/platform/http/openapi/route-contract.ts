import type { z } from 'zod';

const CONTRACT = 'meshwork:route-contract';

/** A multipart form read by the handler itself (streamed uploads): its text fields and its file parts. */
export interface MultipartContract {
  /** The schema the handler validates the text fields with. */
  fields: z.ZodObject;
  /** Text fields that carry JSON (arrays, maps) and are parsed before validation. */
  json?: readonly string[];
  /** The name of the file part, and whether it may repeat. */
  file: { name: string; repeated: boolean };
}

/**
 * What a route answers, beside what its pipes already say about its input. The request side
 * (body, query, route params) is read from the ZodPipe, ParseUUIDPipe and ListQueryPipe on
 * the handler's parameters, so a route is validated and documented by the same schema; the
 * statuses any route of its kind can answer (400 with input, 401/403 behind the guards, 404
 * with a route param, 409 on a write, 413 with a body, 429 when rate-limited) are derived.
 */
export interface RouteContract<R extends z.ZodType = z.ZodType> {
  summary?: string;
  /** The success answer's JSON body. */
  response?: R;
  /** The success answer is a file of this media type, not JSON. */
  file?: string;
  /** The body is a multipart form the handler parses itself. */
  multipart?: MultipartContract;
  /** Error statuses this route adds to the derived ones (503 when a dependency is down, ...). */
  errors?: readonly number[];
  /** Other answers that are not errors, with their bodies (health: 503 with the status). */
  answers?: Readonly<Record<number, z.ZodType>>;
}

type Awaitable<T> = T | Promise<T>;

/**
 * Declares a route's answers for the OpenAPI document. The handler's return type must be
 * what `response` describes, so the type, the document and the tests' check cannot drift.
 */
export function Route<R extends z.ZodType = z.ZodType>(contract: RouteContract<R>) {
  return <F extends (...args: never[]) => Awaitable<z.input<R>>>(
    _target: object,
    _key: string | symbol,
    descriptor: TypedPropertyDescriptor<F>,
  ): void => {
    Reflect.defineMetadata(CONTRACT, contract, descriptor.value!);
  };
}

/** The contract declared on a handler, if any. */
export function contractOf(handler: object): RouteContract | undefined {
  return Reflect.getMetadata(CONTRACT, handler) as RouteContract | undefined;
}

const TAG = 'meshwork:openapi-tag';
const UNDOCUMENTED = 'meshwork:undocumented';

/** The controller's group in the OpenAPI document. */
export const Tag =
  (tag: string): ClassDecorator =>
  (target) =>
    Reflect.defineMetadata(TAG, tag, target);

/**
 * Leaves a controller or route out of the OpenAPI document: say why. For callers that are not
 * api clients (Stripe's webhook, signed storage URLs).
 */
export const Undocumented =
  (why: string) =>
  (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor): void =>
    Reflect.defineMetadata(UNDOCUMENTED, why, (descriptor?.value as object | undefined) ?? target);

export const tagOf = (controller: object): string | undefined => Reflect.getMetadata(TAG, controller) as string | undefined;
export const isUndocumented = (controller: object, handler: object): boolean =>
  Reflect.getMetadata(UNDOCUMENTED, controller) !== undefined || Reflect.getMetadata(UNDOCUMENTED, handler) !== undefined;

import type { OpenAPIObject, OperationObject, SchemaObject, ParameterObject, RequestBodyObject, ResponsesObject } from '@nestjs/swagger';
import { z } from 'zod';
import { ErrorBody } from '../error-body';
import { type Json, SchemaComponents } from './json-schema';
import { contractOf, isUndocumented, type RouteContract, tagOf } from './route-contract';
import { guardAnswers, type RouteInput, routeInputs, successStatus } from './route-inputs';
import type { RouteInfo } from './route-table';

const ERRORS: Record<number, string> = {
  400: 'The input is not valid: `errors` per field, `non_field_errors` about the whole.',
  401: 'Not signed in, or the session has ended.',
  403: 'Signed in, but not allowed to do this.',
  404: 'Nothing by that name (or not visible to the caller).',
  409: 'It was changed by someone else meanwhile, or already exists.',
  413: 'The body is larger than the api accepts.',
  429: 'Too many requests from this address; try again after `Retry-After` seconds.',
  431: 'The request line and headers are larger than the server reads (16 KB): a query too long.',
  503: 'A service this call needs is unavailable; try again shortly.',
};

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const binary = { type: 'string', format: 'binary' };

/** `/api/v1/models/:name` becomes `/api/v1/models/{name}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Builds one operation from the route's pipes, guards and contract. */
class OperationBuilder {
  constructor(private readonly components: SchemaComponents) {}

  build(route: RouteInfo, operationIds: Set<string>): OperationObject {
    const contract: RouteContract = contractOf(route.handler) ?? {};
    const inputs = routeInputs(route);
    const guards = guardAnswers(route);
    const parameters = [...this.pathParameters(route, inputs), ...this.queryParameters(inputs)];
    const requestBody = this.requestBody(inputs, contract);
    const errors = new Set<number>([...guards.flatMap((g) => g.errors), ...(contract.errors ?? [])]);
    if (parameters.length > 0 || requestBody) errors.add(400);
    if (parameters.some((p) => p.in === 'path')) errors.add(404);
    if (requestBody) errors.add(413);
    if (WRITES.has(route.method)) errors.add(409);
    // A request head over 16 KB is refused before routing (see client-error.ts): an over-long query.
    if (parameters.some((p) => p.in === 'query')) errors.add(431);
    const base = `${route.controller.name.replace(/Controller$/, '')}_${route.handlerName}`;
    const operationId = route.alias === 0 && !operationIds.has(base) ? base : `${base}_${route.alias + 1}`;
    operationIds.add(operationId);
    return {
      operationId,
      ...(contract.summary ? { summary: contract.summary } : {}),
      ...(tagOf(route.controller) ? { tags: [tagOf(route.controller)!] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: this.responses(route, contract, inputs, errors),
      ...(guards.some((g) => g.bearer)
        ? { security: guards.some((g) => g.sessionOnly) ? [{ bearer: [] }] : [{ bearer: [] }, { apiToken: [] }] }
        : {}),
    };
  }

  private pathParameters(route: RouteInfo, inputs: RouteInput[]): ParameterObject[] {
    const params = inputs.filter((i) => i.from === 'param');
    const whole = params.find((i) => !i.name && i.schema);
    const fromWhole = new Map((whole?.schema ? this.components.properties(whole.schema) : []).map((p) => [p.name, p.schema]));
    return [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => {
      const own = params.find((i) => i.name === name);
      return { name: name!, in: 'path', required: true, schema: this.inputSchema(own) ?? fromWhole.get(name!) ?? { type: 'string' } };
    });
  }

  private queryParameters(inputs: RouteInput[]): ParameterObject[] {
    const parameters: ParameterObject[] = [];
    for (const input of inputs.filter((i) => i.from === 'query')) {
      if (input.list) {
        for (const [name, schema] of Object.entries(input.list.parameters()))
          parameters.push({
            name,
            in: 'query',
            required: false,
            description: 'JSON, as ra-data-simple-rest sends it.',
            content: { 'application/json': { schema: this.components.convert(schema, 'input') } },
          });
      } else if (input.name) {
        parameters.push({ name: input.name, in: 'query', required: false, schema: this.inputSchema(input) ?? { type: 'string' } });
      } else if (input.schema) {
        for (const p of this.components.properties(input.schema))
          parameters.push({ name: p.name, in: 'query', required: p.required, schema: p.schema });
      }
    }
    return parameters;
  }

  private inputSchema(input: RouteInput | undefined): Json | undefined {
    if (input?.schema) return this.components.convert(input.schema, 'input');
    if (input?.uuid) return { type: 'string', format: 'uuid' };
    return undefined;
  }

  private requestBody(inputs: RouteInput[], contract: RouteContract): RequestBodyObject | undefined {
    const body = inputs.find((i) => i.from === 'body' && i.schema);
    if (body?.schema) return { required: true, content: { 'application/json': { schema: this.components.convert(body.schema, 'input') } } };
    const form = contract.multipart;
    if (!form) return undefined;
    const fields = this.components.properties(form.fields);
    const properties: Record<string, Json> = {};
    for (const field of fields)
      properties[field.name] = form.json?.includes(field.name)
        ? { type: 'string', description: `JSON: ${JSON.stringify(field.schema)}` }
        : field.schema;
    properties[form.file.name] = form.file.repeated ? { type: 'array', items: binary } : binary;
    const required = [...fields.filter((f) => f.required).map((f) => f.name), form.file.name];
    return { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties, required } } } };
  }

  private responses(route: RouteInfo, contract: RouteContract, inputs: RouteInput[], errors: Set<number>): ResponsesObject {
    const json = (schema: Json) => ({ 'application/json': { schema } });
    const success = successStatus(route);
    const listed = inputs.some((i) => i.list);
    const responses: ResponsesObject = {
      [success]: {
        description: listed ? 'The page asked for; `Content-Range` says which rows of how many.' : 'Done.',
        ...(contract.file ? { content: { [contract.file]: { schema: binary } } } : {}),
        ...(contract.response ? { content: json(this.components.convert(contract.response, 'output')) } : {}),
        ...(listed ? { headers: { 'Content-Range': { required: true, schema: { type: 'string', example: 'users 0-24/319' } } } } : {}),
      },
    };
    for (const [status, schema] of Object.entries(contract.answers ?? {}))
      responses[status] = { description: 'Answered with the same body.', content: json(this.components.convert(schema, 'output')) };
    const errorBody = this.components.convert(ErrorBody, 'output');
    for (const status of [...errors].sort((a, b) => a - b))
      responses[status] ??= {
        description: ERRORS[status] ?? 'An error.',
        content: json(errorBody),
        ...(status === 429 ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } } : {}),
      };
    return responses;
  }
}

/**
 * The OpenAPI document of every route in `routes`, generated from what Nest runs: the
 * zod schemas of the pipes that validate each input, the route's contract (answers), its
 * guards (security, 401/403/429) and its status code.
 */
export function openApiDocument(routes: readonly RouteInfo[], info: OpenAPIObject['info'], webhooks: WebhookPayloads = {}): OpenAPIObject {
  const components = new SchemaComponents();
  const builder = new OperationBuilder(components);
  const operationIds = new Set<string>();
  const paths: OpenAPIObject['paths'] = {};
  for (const route of routes) {
    if (isUndocumented(route.controller, route.handler)) continue;
    const path = (paths[openApiPath(route.path)] ??= {});
    (path as Record<string, OperationObject>)[route.method.toLowerCase()] = builder.build(route, operationIds);
  }
  return {
    // 3.1 for its `webhooks`; the components are converted as for 3.0 (`nullable`), which 3.1 readers ignore.
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "A signed-in session's access token (POST /login)." },
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'mw_live_…',
          description:
            'A long-lived API token from /settings/api: `Authorization: Bearer mw_live_…`. Read tokens may only GET/HEAD; the plan ' +
            'narrows a token on every request and limits its requests per minute (RateLimit-* headers; 429 with Retry-After). ' +
            'Routes whose security lists only `bearer` refuse API tokens (token management, password, account deletion, the console).',
        },
      },
    },
    ...(Object.keys(webhooks).length > 0 ? { webhooks: webhookOperations(webhooks) } : {}),
  };
}

/** What the api POSTs to webhook endpoints, by event type (OpenAPI 3.1's `webhooks`). */
export type WebhookPayloads = Readonly<Record<string, z.ZodType>>;

/** A payload's JSON Schema (2020-12, 3.1's dialect) without the `$defs` its named schema would point into. */
function inlineSchema(schema: z.ZodType): SchemaObject {
  const json = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
  const { $ref, $defs } = json as { $ref?: string; $defs?: Record<string, object> };
  const named = $ref && $defs ? $defs[$ref.replace('#/$defs/', '')] : undefined;
  if (named) return named as SchemaObject;
  delete json.$schema;
  return json as SchemaObject;
}

function webhookOperations(webhooks: WebhookPayloads): NonNullable<OpenAPIObject['webhooks']> {
  return Object.fromEntries(
    Object.entries(webhooks).map(([type, schema]) => [
      type,
      {
        post: {
          summary: schema.description ?? type,
          description:
            'Signed: `Meshwork-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` (one v1 per active secret).',
          requestBody: { required: true, content: { 'application/json': { schema: inlineSchema(schema) } } },
          responses: { '200': { description: 'Any 2xx answer is a success; anything else, or no answer within 10 s, is retried.' } },
        },
      },
    ]),
  );
}

import { z } from 'zod';

export type Json = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

function rewriteRefs(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, names));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    const local = key === '$ref' && typeof item === 'string' ? /^#\/(?:definitions|\$defs)\/(.+)$/.exec(item) : null;
    out[key] = local ? `${COMPONENTS}${names.get(local[1]!) ?? local[1]}` : rewriteRefs(item, names);
  }
  return out;
}

/**
 * zod to OpenAPI 3.0 schemas, with the schemas named in contracts/ (`.meta({id})`) collected
 * once under components and referenced. Requests are described as they are read (`input`:
 * defaults make a field optional), answers as they are written (`output`).
 */
export class SchemaComponents {
  readonly schemas: Record<string, Json> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const json = z.toJSONSchema(schema, {
      target: 'openapi-3.0',
      io,
      unrepresentable: 'any',
      // An answer may gain fields over time; clients ignore what they do not know, so the
      // document does not forbid extra properties in answers.
      override: ({ jsonSchema }) => {
        if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
      },
    }) as Json;
    const { definitions, $defs, ...root } = json as Json & { definitions?: Json; $defs?: Json };
    delete root.$schema;
    const named = { ...definitions, ...$defs } as Record<string, Json>;
    // The same named schema read as input can differ (defaults, no extra-property rule): its own name.
    const names = new Map(Object.keys(named).map((id) => [id, io === 'output' ? id : `${id}Input`]));
    for (const [id, definition] of Object.entries(named)) this.schemas[names.get(id)!] = rewriteRefs(definition, names) as Json;
    return rewriteRefs(root, names) as Json;
  }

  /** The properties of an object schema, each with whether it is required (query strings, route params). */
  properties(schema: z.ZodType): { name: string; required: boolean; schema: Json }[] {
    const json = this.convert(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    return Object.entries(json.properties ?? {}).map(([name, property]) => ({
      name,
      required: json.required?.includes(name) ?? false,
      schema: property,
    }));
  }
}

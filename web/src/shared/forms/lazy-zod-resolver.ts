import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A form's zod resolver whose schema (and zod with it) is fetched as the page loads but
 * evaluated apart from it, in a task of its own: zod is most of a form page's script, and a
 * phone evaluating it with the page cannot answer input meanwhile. If the fetch fails (the
 * visitor went offline), the next check tries again.
 */
export function lazyZodResolver<Schema extends z.ZodType<FieldValues, FieldValues>>(
  loadSchema: () => Promise<Schema>,
): Resolver<z.input<Schema>, unknown, z.output<Schema>> {
  type SchemaResolver = Resolver<z.input<Schema>, unknown, z.output<Schema>>;
  let resolver: Promise<SchemaResolver> | undefined;
  const load = (): Promise<SchemaResolver> => {
    resolver = Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as unknown as SchemaResolver,
    );
    resolver.catch(() => (resolver = undefined));
    return resolver;
  };
  void load();
  return async (values, context, options) => (await (resolver ?? load()))(values, context, options);
}

import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/** A form resolver that can be told to get ready before its first check. */
export type LazyResolver<Input extends FieldValues, Output> = Resolver<Input, unknown, Output> & {
  /** Starts loading the schema now; give it to the form's onFocus. */
  preload: () => void;
};

/**
 * A form's zod resolver whose schema (and zod with it) loads only when the visitor first turns
 * to the form (`preload`, from the form's onFocus) or sends it. Building zod schemas is most of
 * a form page's script: done as the page loads, it held a phone still for longer than any other
 * task of the page, for a form the visitor may never fill in. It is evaluated in a task of its
 * own, while the visitor types. If the fetch fails (the visitor went offline), the next check
 * tries again.
 */
export function lazyZodResolver<Schema extends z.ZodType<FieldValues, FieldValues>>(
  loadSchema: () => Promise<Schema>,
): LazyResolver<z.input<Schema>, z.output<Schema>> {
  type SchemaResolver = Resolver<z.input<Schema>, unknown, z.output<Schema>>;
  let resolver: Promise<SchemaResolver> | undefined;
  const load = (): Promise<SchemaResolver> => {
    resolver = Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as unknown as SchemaResolver,
    );
    resolver.catch(() => (resolver = undefined));
    return resolver;
  };
  const check: SchemaResolver = async (values, context, options) => (await (resolver ?? load()))(values, context, options);
  return Object.assign(check, { preload: () => void (resolver ?? load()) });
}

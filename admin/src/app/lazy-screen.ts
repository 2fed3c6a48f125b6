import { type ComponentType, lazy } from 'react';

/**
 * A screen loaded the first time it is opened (issue 16: the console split by screen), from
 * the module `load` imports and the component it exports as `name`. react-admin's layout
 * shows its loading state meanwhile.
 */
export function lazyScreen<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): ComponentType {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

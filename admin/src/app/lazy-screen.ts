import { type ComponentType, createElement, lazy, type LazyExoticComponent } from 'react';
import { loadPatiently } from '@meshwork/contracts';

/** Screens whose code could not be had, each with how to make it load afresh. */
const failedScreens = new Set<() => void>();

/**
 * Makes every screen whose code failed to load try again when next shown: the crash screen's
 * Try Again. Not done at the failure itself: React renders a failed screen once more before
 * it gives up, and a fresh load there would start again at each failure, without end.
 */
export function reloadFailedScreens(): void {
  for (const reload of failedScreens) reload();
  failedScreens.clear();
}

/**
 * A screen loaded the first time it is opened (issue 16: the console split by screen), from
 * the module `load` imports and the component it exports as `name`. react-admin's layout
 * shows its loading state meanwhile. A load that fails (the network dropped, or changed under
 * the page) is tried twice more; if it still fails the crash screen shows, and its Try Again
 * loads the screen afresh (`reloadFailedScreens`: React keeps a lazy component's failure).
 */
export function lazyScreen<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): ComponentType {
  const make = (): LazyExoticComponent<ComponentType> =>
    lazy(async () => {
      try {
        return { default: (await loadPatiently(load))[name] as ComponentType };
      } catch (error) {
        failedScreens.add(() => (screen = make()));
        throw error;
      }
    });
  let screen = make();
  return function LazyScreen(props: object) {
    return createElement(screen, props);
  };
}

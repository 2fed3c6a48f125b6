import { createContext, useContext, useEffect } from 'react';

/** Called once the page itself (not just the bar around it) is hydrated and answering input. */
export const PageAwakeContext = createContext<(() => void) | undefined>(undefined);

/**
 * Rendered inside the page's Suspense boundary (root-layout.tsx) and on the error screen: its
 * effect runs in the commit that wakes the page, after the top bar's own.
 */
export function PageAwake() {
  const onAwake = useContext(PageAwakeContext);
  useEffect(() => onAwake?.(), [onAwake]);
  return null;
}

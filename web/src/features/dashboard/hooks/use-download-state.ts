import { useEffect, useState } from 'react';

/** Spec section 4: a finished download shows as complete for this long, then it is idle again. */
export const COMPLETED_RESET_MS = 2000;

/** A download's state, starting at `idle` and back to it COMPLETED_RESET_MS after it completed. */
export function useDownloadState<State extends { status: string }>(idle: State) {
  const [state, setState] = useState<State>(idle);
  useEffect(() => {
    if (state.status !== 'completed') return;
    const timer = setTimeout(() => setState(idle), COMPLETED_RESET_MS);
    return () => clearTimeout(timer);
  }, [state.status, idle]);
  return [state, setState] as const;
}

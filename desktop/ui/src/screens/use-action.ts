import { useState } from 'react';
import { HostError } from '../host-client';

/**
 * Runs one command at a time for a screen: `busy` while it runs, and the host's refusal
 * (message and per-field errors) to show beside the form.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  async function run<T>(action: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (caught) {
      setError(caught instanceof HostError ? caught : new HostError((caught as Error).message));
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}

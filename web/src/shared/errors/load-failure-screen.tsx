import { CircleAlert, Clock, ServerCrash, ShieldX, WifiOff, Wrench, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { Button, LinkButton } from '../ui/button';
import { Card } from '../ui/card';
import { Spinner } from '../ui/spinner';
import { classifyLoadFailure, type LoadFailureKind } from './load-failure';

const icons: Record<LoadFailureKind, LucideIcon> = {
  connection: WifiOff,
  server: ServerCrash,
  maintenance: Wrench,
  access: ShieldX,
  timeout: Clock,
  other: CircleAlert,
};

/**
 * What a page shows in place of its content when its main data cannot load: the spec's
 * screen for the failure, a way to ask again, and a way home.
 */
export function LoadFailureScreen({ error, onRetry, retrying }: { error: unknown; onRetry: () => unknown; retrying: boolean }) {
  const failure = classifyLoadFailure(error);
  const Icon = icons[failure.kind];
  const headingId = useId();
  return (
    <Card role="alert" aria-labelledby={headingId} className="mx-auto mt-8 max-w-lg p-8 text-center">
      <Icon className="mx-auto size-10 text-slate-400 dark:text-slate-500" aria-hidden />
      <h2 id={headingId} className="mt-4 text-xl font-semibold text-slate-900 dark:text-white">
        {failure.title}
      </h2>
      <p className="mt-2 text-slate-600 dark:text-slate-400">{failure.message}</p>
      {failure.status !== undefined && <p className="mt-2 font-mono text-sm text-slate-500">HTTP {failure.status}</p>}
      <div className="mt-6 flex justify-center gap-3">
        <Button onClick={() => void onRetry()} disabled={retrying}>
          {retrying && <Spinner />}
          Try Again
        </Button>
        <LinkButton to="/" variant="secondary">
          Back to Home
        </LinkButton>
      </div>
    </Card>
  );
}

import { isRouteErrorResponse, useRouteError } from 'react-router';
import { buttonClasses } from '../shared/ui/button';
import { Logo } from '../shared/ui/logo';
import { PageAwake } from './page-awake';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The app-level router error screen: errors thrown while rendering a route (unknown paths have NotFoundPage). */
export function RouterErrorScreen() {
  const error = useRouteError();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-6 text-center">
      <PageAwake />
      <Logo className="mb-10 text-slate-900 dark:text-white" />
      <h1 className="text-3xl font-bold tracking-tight">Unexpected Application Error!</h1>
      <p className="mt-3 max-w-lg font-mono text-sm text-slate-600 dark:text-slate-400">{describe(error)}</p>
      <div className="mt-8 flex gap-3">
        {/* Plain anchor: a full load starts the app afresh after a crash. */}
        <a href="/" className={buttonClasses()}>
          Back to Home
        </a>
        <button type="button" className={buttonClasses({ variant: 'secondary' })} onClick={() => window.location.reload()}>
          Reload Page
        </button>
      </div>
    </main>
  );
}

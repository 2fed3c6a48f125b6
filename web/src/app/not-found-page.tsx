import { LinkButton } from '../shared/ui/button';

/** Any path the site does not have: said plainly, inside the usual top bar and footer, with a way home. */
export function NotFoundPage() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <p className="font-mono text-sm font-semibold text-brand-600 dark:text-brand-400">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Page Not Found</h1>
      <p className="mt-4 text-slate-600 dark:text-slate-400">
        The page you are looking for does not exist or has moved. Check the address, or start again from the home page.
      </p>
      <LinkButton to="/" className="mt-8">
        Back to Home
      </LinkButton>
    </div>
  );
}

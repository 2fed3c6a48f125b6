import type { ReactNode } from 'react';

/** The title, a line under it, and the page's main action, as the site's other settings pages lay them out. */
export function WebhooksPageHeader({
  title,
  lead,
  action,
  before,
}: {
  title: string;
  lead: ReactNode;
  action?: ReactNode;
  before?: ReactNode;
}) {
  return (
    <header className="mb-8">
      {before}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">{title}</h1>
          <p className="mt-2 break-all text-slate-600 dark:text-slate-400">{lead}</p>
        </div>
        {action}
      </div>
    </header>
  );
}

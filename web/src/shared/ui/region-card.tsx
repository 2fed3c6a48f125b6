import { useId, type ReactNode } from 'react';
import { Card } from './card';

/** A titled card that is also a landmark region named by its title, so it can be found by name. */
export function RegionCard({
  title,
  action,
  children,
  className = '',
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const headingId = useId();
  return (
    <Card role="region" aria-labelledby={headingId} className={`p-6 ${className}`}>
      <div className="flex items-center justify-between gap-4">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
          {title}
        </h2>
        {action}
      </div>
      <div className="mt-4">{children}</div>
    </Card>
  );
}

import type { ReactNode } from 'react';
import { Card } from '../../../shared/ui/card';

/** A titled card of the settings page. */
export function SettingsSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card className="p-6 sm:p-8">
      <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{title}</h2>
      {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
      <div className="mt-6">{children}</div>
    </Card>
  );
}

import type { AvailableModel } from '@contracts/billing/billing.contract';
import { Boxes } from 'lucide-react';
import { LinkButton } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { formatFileSize } from './file-size';

/** The AI models the plan may download. */
export function AvailableModels({ models }: { models: readonly AvailableModel[] }) {
  return (
    <RegionCard title="Available Models">
      {models.length === 0 ? (
        <div className="text-sm text-slate-600 dark:text-slate-400">
          <p>No AI models are available on your plan yet.</p>
          <LinkButton to="/pricing" variant="secondary" size="sm" className="mt-3">
            Compare plans
          </LinkButton>
        </div>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {models.map((model) => (
            <li key={model.name} className="flex items-start gap-3 py-3 first:pt-0">
              <Boxes className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-400" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="font-medium text-slate-900 dark:text-white">
                  {model.display_name} <span className="text-sm font-normal text-slate-500 dark:text-slate-400">v{model.version}</span>
                </p>
                {model.description && <p className="text-sm text-slate-600 dark:text-slate-400">{model.description}</p>}
              </div>
              <p className="shrink-0 text-sm text-slate-500 dark:text-slate-400">
                {formatFileSize(model.file_size)} · {model.block_count} {model.block_count === 1 ? 'part' : 'parts'}
              </p>
            </li>
          ))}
        </ul>
      )}
    </RegionCard>
  );
}

import type { AvailableModel } from '@meshwork/contracts';
import { Boxes } from 'lucide-react';
import { Link } from 'react-router';
import { LinkButton } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { formatFileSize } from './file-size';

const linkClasses = 'font-medium text-brand-700 hover:underline dark:text-brand-300';

function ModelRow({ model }: { model: AvailableModel }) {
  return (
    <li aria-label={model.display_name} className="flex items-start gap-3 py-3 first:pt-0">
      <Boxes className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-400" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-slate-900 dark:text-white">
          {model.display_name} <span className="text-sm font-normal text-slate-500 dark:text-slate-400">v{model.version}</span>
        </p>
        <p className="text-xs text-slate-500 dark:text-slate-400">{model.name}</p>
        {model.description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{model.description}</p>}
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
          {formatFileSize(model.file_size)} · {model.block_count} {model.block_count === 1 ? 'block' : 'blocks'}
        </p>
      </div>
    </li>
  );
}

/**
 * The AI models the plan includes. They are not downloaded here: a model is a set of files only
 * the desktop app can use (it fetches each once, resumes, checks every file and runs it), so the
 * page says where to get them rather than saving loose files with no word of why.
 */
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
        <>
          <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
            Your plan includes these models. You download them in the Meshwork desktop app, under Models: it fetches each model once, checks
            it and runs it on your own computers.{' '}
            <Link to="/documentation#install-the-app" className={linkClasses}>
              How to install the app
            </Link>
          </p>
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {models.map((model) => (
              <ModelRow key={model.name} model={model} />
            ))}
          </ul>
        </>
      )}
    </RegionCard>
  );
}

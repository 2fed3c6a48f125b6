import type { AvailableModel } from '@meshwork/contracts';
import { Boxes, CircleCheck, Download } from 'lucide-react';
import { Button, LinkButton } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { Spinner } from '../../../shared/ui/spinner';
import { useModelDownload, type ModelDownloadState } from '../hooks/use-model-download';
import { DownloadProgressBar } from './download-progress-bar';
import { formatFileSize } from './file-size';

function progressText(state: ModelDownloadState): string | null {
  if (state.status !== 'downloading') return null;
  if (state.total === null) return 'Preparing download…';
  return `Starting file ${Math.min(state.handed + 1, state.total)} of ${state.total}…`;
}

function ModelRow({ model }: { model: AvailableModel }) {
  const { start, state } = useModelDownload(model);
  const downloading = state.status === 'downloading';
  const text = progressText(state);
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
        {downloading && (
          <>
            <DownloadProgressBar
              label={`${model.display_name} download progress`}
              percent={state.total ? Math.round((state.handed / state.total) * 100) : null}
            />
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{text}</p>
          </>
        )}
        {state.status === 'completed' && (
          <p className="mt-1 flex items-center gap-1 text-xs text-green-700 dark:text-green-400">
            <CircleCheck className="size-3.5" aria-hidden /> Your browser is saving the files.
          </p>
        )}
      </div>
      <Button
        size="sm"
        variant="secondary"
        className="shrink-0"
        onClick={start}
        disabled={downloading}
        aria-label={`Download ${model.display_name}`}
      >
        {downloading ? <Spinner /> : <Download className="size-4" aria-hidden />}
        Download
      </Button>
    </li>
  );
}

/** The AI models the plan may download, each with its files' download. */
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
            <ModelRow key={model.name} model={model} />
          ))}
        </ul>
      )}
    </RegionCard>
  );
}

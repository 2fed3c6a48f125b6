import type { HostModel, HostState } from '@meshwork/contracts';
import { command } from '../host-client';
import { fill, useI18n } from '../i18n';
import { useAction } from './use-action';

/** The plan's models on this device: download with progress and speed, remove. */
export function ModelsScreen({ state }: { state: HostState }) {
  const { t } = useI18n();
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold">{t.planModels}</h1>
      {state.models.length === 0 ? (
        <p className="text-slate-600">{t.noModels}</p>
      ) : (
        <ul className="space-y-3">
          {state.models.map((model) => (
            <ModelRow key={`${model.name}@${model.version}`} model={model} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ModelRow({ model }: { model: HostModel }) {
  const { t, bytes, number } = useI18n();
  const { busy, error, run } = useAction();
  const moving = model.status === 'queued' || model.status === 'downloading';
  return (
    <li className="card space-y-2" aria-label={model.name}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="font-medium">{model.name}</p>
          <p className="text-sm text-slate-600">
            {model.version} · <span data-testid="model-status">{t.status[model.status]}</span>
          </p>
        </div>
        {model.allowed && (model.status === 'not-downloaded' || model.status === 'failed') && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void run(() => command('/host/models/download', { name: model.name }))}
          >
            {model.status === 'failed' ? t.retry : t.download}
          </button>
        )}
        {model.status === 'installed' && (
          <button
            type="button"
            className={model.allowed ? 'button-quiet' : 'button-danger'}
            disabled={busy}
            onClick={() => void run(() => command('/host/models/remove', { name: model.name }))}
          >
            {t.remove}
          </button>
        )}
      </div>
      {moving && model.bytes_total > 0 && (
        <div className="space-y-1">
          <progress className="h-2 w-full" max={model.bytes_total} value={model.bytes_done} aria-label={model.name} />
          <p className="text-xs text-slate-600">
            {fill(t.progress, { done: bytes(model.bytes_done), total: bytes(model.bytes_total) })} ·{' '}
            {fill(t.speed, { rate: bytes(model.bytes_per_second) })} · {number(model.bytes_done / model.bytes_total, { style: 'percent' })}
          </p>
        </div>
      )}
      {!model.allowed && model.status === 'installed' && <p className="text-sm text-amber-800">{t.notInPlan}</p>}
      {(model.error ?? error?.message) && (
        <p role="alert" className="text-sm text-red-700">
          {model.error ?? error?.message}
        </p>
      )}
    </li>
  );
}

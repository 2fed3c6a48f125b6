import type { HostModel, HostState } from '@meshwork/contracts';
import { command } from '../host-client';
import { fill, useI18n } from '../i18n';
import { modelErrorText, refusalText } from '../messages';
import { useAction } from './use-action';

/** The plan's models on this device, by the names people know them by: download with progress, remove. */
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
  const i18n = useI18n();
  const { t } = i18n;
  const { busy, error, run } = useAction();
  const moving = model.status === 'queued' || model.status === 'downloading';
  return (
    <li className="card space-y-2" aria-label={model.display_name}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="font-medium">{model.display_name}</p>
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
      {moving && (
        <div className="space-y-1">
          {model.bytes_total > 0 && (
            <progress className="h-2 w-full" max={model.bytes_total} value={model.bytes_done} aria-label={model.display_name} />
          )}
          <p className="text-xs text-slate-600" data-testid="model-progress">
            {progressLine(model, i18n)}
          </p>
        </div>
      )}
      {!model.allowed && model.status === 'installed' && <p className="text-sm text-amber-800">{t.notInPlan}</p>}
      {(model.error ?? error) && (
        <p role="alert" className="text-sm text-red-700">
          {model.error ? modelErrorText(t, model.error, i18n) : error && refusalText(t, error)}
        </p>
      )}
    </li>
  );
}

/**
 * What a download is doing, in words: the speed and the time left only while bytes arrive, so
 * a check of bytes already there, or a stall, never reads "0 B/s".
 */
function progressLine(model: HostModel, { t, bytes, number, duration }: ReturnType<typeof useI18n>): string {
  const activity = model.activity ?? 'waiting';
  if (activity === 'waiting' || activity === 'installing' || model.bytes_total === 0) return t.activity[activity];
  const flowing = activity === 'downloading' && model.bytes_per_second > 0;
  const parts = [
    activity === 'downloading' && !flowing ? t.stalled : t.activity[activity],
    fill(t.progress, { done: bytes(model.bytes_done), total: bytes(model.bytes_total) }),
  ];
  if (flowing) {
    parts.push(fill(t.speed, { rate: bytes(model.bytes_per_second) }));
    const left = Math.max(0, model.bytes_total - model.bytes_done) / model.bytes_per_second;
    parts.push(fill(t.timeLeft, { time: duration(left) }));
  }
  parts.push(number(model.bytes_done / model.bytes_total, { style: 'percent' }));
  return parts.join(' · ');
}

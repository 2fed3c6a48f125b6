import type { DownloadHistory, UsageStats } from '@meshwork/contracts';
import { CircleCheck, CircleX, Clock, LoaderCircle, type LucideIcon } from 'lucide-react';
import { formatDateTime, formatLimit } from '../../../shared/format/billing-format';
import { RegionCard } from '../../../shared/ui/region-card';
import { downloadLabel, downloadStatusKind } from './desktop-versions';
import { formatDownloadSize } from './file-size';
import { TokenChart } from './usage/token-chart';
import { formatCount, windowLabel } from './usage/usage-figures';
import { UsageTable } from './usage/usage-tables';

/** Spec section 2: the dashboard lists the three latest downloads. */
const RECENT_DOWNLOADS_SHOWN = 3;

const statusIcons: Record<ReturnType<typeof downloadStatusKind>, { icon: LucideIcon; className: string }> = {
  downloading: { icon: LoaderCircle, className: 'animate-spin text-brand-600 dark:text-brand-400' },
  completed: { icon: CircleCheck, className: 'text-green-600 dark:text-green-400' },
  failed: { icon: CircleX, className: 'text-red-600 dark:text-red-400' },
  pending: { icon: Clock, className: 'text-amber-600 dark:text-amber-400' },
};

function RecentDownloads({ history, failed }: { history: DownloadHistory | undefined; failed: boolean }) {
  if (failed) return <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Failed to load download information</p>;
  if (!history) return <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Loading…</p>;
  if (history.downloads.length === 0) return <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No downloads yet.</p>;
  return (
    <ul aria-label="Recent Downloads" className="mt-2 space-y-2">
      {history.downloads.slice(0, RECENT_DOWNLOADS_SHOWN).map((record) => {
        const kind = downloadStatusKind(record.status);
        const { icon: Icon, className } = statusIcons[kind];
        return (
          <li key={record.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <Icon className={`size-4 shrink-0 ${className}`} aria-hidden />
            <span className="sr-only">{kind}</span>
            <span className="font-medium text-slate-900 dark:text-white">{downloadLabel(record)}</span>
            <span className="text-slate-500 dark:text-slate-400">{formatDownloadSize(record.fileSize)}</span>
            <span className="ml-auto text-slate-500 dark:text-slate-400">{formatDateTime(record.downloadDate)}</span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The dashboard's Usage card (issue 35 §4): what the customer's own devices ran over the plan's
 * window (tokens per day, per model, per device, from the hosts' reports), the plan's figures,
 * and the downloads so far with the latest ones.
 */
export function UsageCard({
  usage,
  history,
  historyFailed,
}: {
  usage: UsageStats | undefined;
  history: DownloadHistory | undefined;
  historyFailed: boolean;
}) {
  const devices = usage?.usage;
  const figures = [
    { label: 'Tokens', value: devices && formatCount(devices.totals.prompt_tokens + devices.totals.completion_tokens) },
    { label: 'Requests', value: devices && formatCount(devices.totals.requests) },
    { label: 'Models available', value: usage?.models.available },
    { label: 'Networks in use', value: usage && `${usage.networks.used} of ${formatLimit(usage.networks.limit)}` },
  ];
  return (
    <RegionCard title="Usage">
      {devices && <p className="-mt-2 mb-4 text-xs text-slate-500 dark:text-slate-400">{windowLabel(devices)}</p>}
      <dl className="grid grid-cols-2 gap-4">
        {figures.map((figure) => (
          <div key={figure.label}>
            <dt className="text-xs text-slate-500 dark:text-slate-400">{figure.label}</dt>
            <dd className="text-lg font-semibold text-slate-900 dark:text-white">{figure.value ?? '—'}</dd>
          </div>
        ))}
      </dl>
      {devices && devices.totals.requests === 0 && (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          No usage yet. Run a model on one of your devices with Meshwork Desktop: its requests and tokens show here.
        </p>
      )}
      {devices && devices.totals.requests > 0 && (
        <>
          <TokenChart days={devices.days} />
          <UsageTable
            label="Usage per model"
            heading="Model"
            rows={devices.models.map((row) => ({ ...row, key: row.model, name: row.model }))}
          />
          <UsageTable
            label="Usage per device"
            heading="Device"
            rows={devices.devices.map((row) => ({ ...row, key: row.device_id, name: row.device_name }))}
          />
        </>
      )}
      <h3 className="mt-6 text-sm font-semibold text-slate-900 dark:text-white">Downloads</h3>
      <dl className="mt-2 grid grid-cols-2 gap-4">
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Total downloads</dt>
          <dd className="text-lg font-semibold text-slate-900 dark:text-white">{history?.total ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Last 30 days</dt>
          <dd className="text-lg font-semibold text-slate-900 dark:text-white">{history?.last_30_days ?? '—'}</dd>
        </div>
      </dl>
      <h3 className="mt-6 text-sm font-semibold text-slate-900 dark:text-white">Recent Downloads</h3>
      <RecentDownloads history={history} failed={historyFailed} />
    </RegionCard>
  );
}

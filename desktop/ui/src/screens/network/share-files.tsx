import type { LanShareReport } from '@meshwork/contracts';
import { fill, useI18n } from '../../i18n';
import { TransferBar } from './transfer-bar';

const SOURCES = ['lan', 'platform', 'installed'] as const;

/**
 * What a device's share costs on disk and where each file came from (the host over the LAN,
 * Meshwork, or the whole package installed), with the file list behind a disclosure, and a
 * progress bar while it receives its share.
 */
export function ShareFiles({ share, colour }: { share: LanShareReport | null; colour: string }) {
  const { t, bytes, number } = useI18n();
  if (share === null) return <p className="text-sm text-slate-600">{t.holdsNothing}</p>;
  const bySource = SOURCES.map((source) => {
    const files = share.files.filter((file) => file.source === source);
    return { source, count: files.length, bytes: files.reduce((sum, file) => sum + file.bytes, 0) };
  }).filter((entry) => entry.count > 0);
  const transfer = share.transfer;
  return (
    <div className="space-y-2 text-sm">
      <h4 className="text-slate-600">{t.disk}</h4>
      <p data-testid="member-disk">{fill(t.diskUsed, { bytes: bytes(share.disk_bytes) })}</p>
      {transfer && <TransferBar done={transfer.done_bytes} total={transfer.total_bytes} colour={colour} />}
      {bySource.length > 0 && (
        <div>
          <h4 className="text-slate-600">{t.filesFrom}</h4>
          <ul className="space-y-0.5" data-testid="member-sources">
            {bySource.map((entry) => (
              <li key={entry.source} data-source={entry.source}>
                <span className="font-medium">{t.fileSource[entry.source]}</span>:{' '}
                {fill(entry.count === 1 ? t.filesOne : t.filesMany, { bytes: bytes(entry.bytes), count: number(entry.count) })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {share.files.length > 0 && (
        <details className="text-xs">
          <summary className="cursor-pointer text-slate-600">
            {t.fileList} ({number(share.files.length)})
          </summary>
          <ul className="mt-1 space-y-0.5">
            {share.files.map((file) => (
              <li key={file.name} className="flex flex-wrap gap-x-2">
                <span className="font-mono" dir="ltr">
                  {file.name}
                </span>
                <span>{bytes(file.bytes)}</span>
                <span className="text-slate-600">{t.fileSource[file.source]}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

import { fill, useI18n } from '../../i18n';

/** A device receiving its share: how far, as a bar in its colour and in words. */
export function TransferBar({ done, total, colour }: { done: number; total: number; colour: string }) {
  const { t, bytes, number } = useI18n();
  const words = fill(t.receiving, { done: bytes(done), total: bytes(total) });
  const fraction = total > 0 ? Math.min(1, done / total) : 0;
  return (
    <div className="space-y-1" data-testid="member-transfer">
      <div
        role="progressbar"
        aria-label={words}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={number(fraction, { style: 'percent' })}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full" style={{ width: `${fraction * 100}%`, backgroundColor: colour }} />
      </div>
      <p className="text-xs text-slate-600">
        {words} · {number(fraction, { style: 'percent' })}
      </p>
    </div>
  );
}

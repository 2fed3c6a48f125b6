import type { MemberActivity } from '@meshwork/contracts';
import { fill, useI18n } from '../../i18n';

const WIDTH = 240;
const HEIGHT = 40;

/**
 * A device's work: its tokens a second now (the last five seconds), in words, and over the last
 * ten minutes as an area in its colour, in ten-second averages (so lower than a burst's rate now;
 * scaled to its own busiest step, named in words beside it, so a quiet device still shows its
 * shape). The chart is one image with the figures in its label.
 */
export function ActivityChart({ activity, colour }: { activity: MemberActivity; colour: string }) {
  const { t, number } = useI18n();
  const rate = (value: number) => number(value, { maximumFractionDigits: value < 10 ? 1 : 0 });
  const { history } = activity;
  const peak = Math.max(...history, 0);
  const x = (i: number) => (history.length > 1 ? (i / (history.length - 1)) * WIDTH : 0);
  const y = (value: number) => HEIGHT - (peak > 0 ? (value / peak) * (HEIGHT - 2) : 0);
  const line = history.map((value, i) => `${x(i).toFixed(1)},${y(value).toFixed(1)}`).join(' ');
  const now = fill(t.tokensPerSecond, { rate: rate(activity.tokens_per_second) });
  const over = fill(t.activityHistory, { peak: rate(peak) });
  return (
    <div className="space-y-1" data-testid="member-activity">
      <p className="text-sm">
        <span className="font-medium tabular-nums" data-testid="member-rate">
          {now}
        </span>{' '}
        <span className="text-slate-600">{over}</span>
      </p>
      <svg
        role="img"
        aria-label={`${now}. ${over}`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-10 w-full max-w-md"
        preserveAspectRatio="none"
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} stroke="#cbd5e1" strokeWidth="1" />
        {history.length > 1 && <polygon points={`0,${HEIGHT} ${line} ${WIDTH},${HEIGHT}`} fill={colour} fillOpacity="0.25" />}
        {history.length > 1 && <polyline points={line} fill="none" stroke={colour} strokeWidth="1.5" />}
      </svg>
    </div>
  );
}

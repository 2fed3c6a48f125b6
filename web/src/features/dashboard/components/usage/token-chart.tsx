import type { DeviceUsage } from '@meshwork/contracts';
import { formatCount, tokenBars } from './usage-figures';

const WIDTH = 300;
const HEIGHT = 96;

/**
 * Tokens per day as a small SVG bar chart: no chart library in the site's bundle for one
 * series. Each bar names its day and figure for a pointer (title) and the chart as a whole is
 * described for a screen reader.
 */
export function TokenChart({ days }: { days: DeviceUsage['days'] }) {
  const bars = tokenBars(days);
  const slot = WIDTH / Math.max(1, bars.length);
  const gap = Math.min(2, slot / 4);
  const total = bars.reduce((sum, bar) => sum + bar.tokens, 0);
  return (
    <figure className="mt-4">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-24 w-full"
        preserveAspectRatio="none"
        role="img"
        aria-label={`Tokens per day: ${formatCount(total)} over ${bars.length} days`}
      >
        <line x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-slate-200 dark:stroke-slate-700" />
        {bars.map((bar, i) => {
          const height = bar.tokens > 0 ? Math.max(2, bar.share * (HEIGHT - 4)) : 0;
          return (
            <rect
              key={bar.date}
              x={i * slot + gap / 2}
              y={HEIGHT - height}
              width={slot - gap}
              height={height}
              className="fill-brand-500 dark:fill-brand-400"
            >
              <title>{`${bar.date}: ${formatCount(bar.tokens)} tokens`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex justify-between text-xs text-slate-500 dark:text-slate-400">
        <span>{bars[0]?.date}</span>
        <span>Tokens per day</span>
        <span>{bars.at(-1)?.date}</span>
      </figcaption>
    </figure>
  );
}

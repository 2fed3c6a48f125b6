import type { MemberActivity } from '@meshwork/contracts';
import { fill, useI18n } from '../../i18n';

const WIDTH = 240;
const HEIGHT = 40;

/**
 * A device's measured memory over the last ten minutes, beside its work over the same steps: a
 * line in its colour from zero to its highest step (so its level reads against the bar above,
 * not only its changes), broken where it measured nothing (no share held, or offline). Nothing
 * is drawn before the first measure. The lowest and highest are also in words and in the label.
 */
export function MemoryHistory({ activity, colour }: { activity: MemberActivity; colour: string }) {
  const { t, bytes } = useI18n();
  const { memory } = activity;
  const measured = memory.filter((value): value is number => value !== null);
  if (measured.length === 0) return null;
  const peak = Math.max(...measured);
  const low = bytes(Math.min(...measured));
  // Equal in the words they show: one figure, not "from 974 MB to 974 MB".
  const words = low === bytes(peak) ? fill(t.memoryHistorySteady, { peak: low }) : fill(t.memoryHistory, { low, peak: bytes(peak) });
  const x = (i: number) => (memory.length > 1 ? (i / (memory.length - 1)) * WIDTH : 0);
  const y = (value: number) => HEIGHT - (value / peak) * (HEIGHT - 2);
  // Runs of measured steps, each its own line; a lone step is a dot.
  const runs: { x: number; y: number }[][] = [];
  memory.forEach((value, i) => {
    if (value === null) return;
    const point = { x: x(i), y: y(value) };
    if (i > 0 && memory[i - 1] !== null) runs.at(-1)!.push(point);
    else runs.push([point]);
  });
  return (
    <div className="space-y-1" data-testid="member-memory-history">
      <p className="text-sm text-slate-600">{words}</p>
      <svg role="img" aria-label={words} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-10 w-full max-w-md" preserveAspectRatio="none">
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} stroke="#cbd5e1" strokeWidth="1" />
        {runs.map((run, i) =>
          run.length > 1 ? (
            <polyline
              key={i}
              points={run.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')}
              fill="none"
              stroke={colour}
              strokeWidth="1.5"
            />
          ) : (
            <circle key={i} cx={run[0]!.x} cy={run[0]!.y} r="1.5" fill={colour} />
          ),
        )}
      </svg>
    </div>
  );
}

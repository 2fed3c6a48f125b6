import type { CSSProperties } from 'react';
import type { HostNetworkMember } from '@meshwork/contracts';
import { fill, useI18n } from '../../i18n';

/** The fixed part in the device's colour, striped, so it differs from the weights by more than shade. */
const striped = (colour: string): CSSProperties => ({
  backgroundImage: `repeating-linear-gradient(45deg, ${colour} 0 3px, #ffffff 3px 5px)`,
});

/**
 * A device's memory as one bar: what its share uses (the held blocks' weights, the fixed part it
 * states, and any other use the measured RSS shows beyond them) stacked before the memory it still
 * has free, so the bar's length is all it can give the model. The measured RSS and peak are text,
 * and the peak a mark on the bar. Every segment is also named in the legend under it.
 */
export function MemoryBar({ member, colour }: { member: HostNetworkMember; colour: string }) {
  const { t, bytes } = useI18n();
  const free = member.free_memory_bytes;
  const memory = member.share?.memory;
  if (!memory) {
    return (
      <p className="text-sm" data-testid="member-memory">
        {fill(t.memoryFreeOnly, { free: bytes(free) })}
      </p>
    );
  }
  const other = Math.max(0, memory.rss_bytes - memory.weights_bytes - memory.fixed_bytes);
  const segments = [
    { key: 'weights', label: t.memoryWeights, value: memory.weights_bytes, style: { backgroundColor: colour } },
    { key: 'fixed', label: t.memoryFixed, value: memory.fixed_bytes, style: striped(colour) },
    { key: 'other', label: t.memoryOther, value: other, style: { backgroundColor: '#94a3b8' } },
    { key: 'free', label: t.memoryFree, value: free, style: { backgroundColor: '#f1f5f9' } },
  ].filter((segment) => segment.value > 0 || segment.key !== 'other');
  const total = segments.reduce((sum, segment) => sum + segment.value, 0) || 1;
  const share = (value: number) => `${Math.min(100, (value / total) * 100)}%`;
  const words = segments.map((segment) => `${segment.label} ${bytes(segment.value)}`);
  const measured = fill(t.memoryMeasured, { rss: bytes(memory.rss_bytes), peak: bytes(memory.peak_rss_bytes) });
  return (
    <div className="space-y-1" data-testid="member-memory">
      <div
        role="img"
        aria-label={`${words.join(t.listSeparator)}. ${measured}`}
        className="relative flex h-4 w-full overflow-hidden rounded-sm border border-slate-300"
      >
        {segments.map((segment) => (
          <span
            key={segment.key}
            className="h-full"
            style={{ ...segment.style, width: share(segment.value) }}
            title={`${segment.label} ${bytes(segment.value)}`}
          />
        ))}
        <span
          aria-hidden="true"
          className="absolute inset-y-0 w-0.5 bg-slate-900"
          style={{ insetInlineStart: share(memory.peak_rss_bytes) }}
          title={measured}
        />
      </div>
      <ul className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-700">
        {segments.map((segment) => (
          <li key={segment.key} className="flex items-center gap-1" data-testid={`memory-${segment.key}`}>
            <span aria-hidden="true" className="inline-block size-2.5 rounded-sm border border-slate-300" style={segment.style} />
            {segment.label} {bytes(segment.value)}
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-600" data-testid="memory-measured">
        {measured}
      </p>
    </div>
  );
}

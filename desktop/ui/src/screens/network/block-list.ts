import { fill, useI18n } from '../../i18n';

/** Blocks as people read them: `[0, 1, 2, 5]` as "Blocks 0–2, 5", in the language's digits. */
export function useBlockList(): (blocks: readonly number[]) => string {
  const { t, number } = useI18n();
  return (blocks) => {
    if (blocks.length === 0) return t.blocksNone;
    const sorted = [...new Set(blocks)].sort((a, b) => a - b);
    const runs: [number, number][] = [];
    for (const block of sorted) {
      const last = runs.at(-1);
      if (last && block === last[1] + 1) last[1] = block;
      else runs.push([block, block]);
    }
    const list = runs.map(([from, to]) => (from === to ? number(from) : `${number(from)}–${number(to)}`)).join(t.listSeparator);
    return fill(sorted.length === 1 ? t.blocksOne : t.blocksMany, { list });
  };
}

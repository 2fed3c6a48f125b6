import type { HostNetworkMember } from '@meshwork/contracts';
import { fill, useI18n } from '../../i18n';
import { holdersByBlock } from './block-count';
import { useBlockList } from './block-list';
import { BlockStrip } from './block-strip';

/** Stripes of each holder's colour: a block two devices hold (during a reassignment) shows both. */
function holdersPaint(holders: HostNetworkMember[], colours: Map<string, string>) {
  if (holders.length === 0) return null;
  const stops = holders.map((m, i) => {
    const colour = colours.get(m.device_id)!;
    return `${colour} ${(i / holders.length) * 100}% ${((i + 1) / holders.length) * 100}%`;
  });
  return { background: `linear-gradient(to bottom, ${stops.join(', ')})` };
}

/** The whole network's strip: every block of the model in the colour of the device that runs it, with a legend in words. */
export function NetworkBlocks(props: { members: HostNetworkMember[]; colours: Map<string, string>; total: number }) {
  const { t, number } = useI18n();
  const blockList = useBlockList();
  const { members, colours, total } = props;
  if (total === 0) return null;
  const holders = holdersByBlock(members, total);
  const unheld = holders.flatMap((h, block) => (h.length === 0 ? [block] : []));
  const holding = members.filter((m) => m.blocks.length > 0);
  const legend = [
    ...holding.map((m) => ({ key: m.device_id, colour: colours.get(m.device_id)!, name: m.name, blocks: blockList(m.blocks) })),
    ...(unheld.length > 0 ? [{ key: 'unheld', colour: null, name: t.unheld, blocks: blockList(unheld) }] : []),
  ];
  return (
    <div className="space-y-2" data-testid="network-blocks">
      <div>
        <h3 className="text-sm font-medium">{t.modelBlocks}</h3>
        <p className="text-xs text-slate-600">{fill(t.modelBlocksLead, { total: number(total) })}</p>
      </div>
      <BlockStrip
        total={total}
        label={legend.map((entry) => `${entry.name}: ${entry.blocks}`).join(t.listSeparator)}
        paint={(block) => holdersPaint(holders[block]!, colours)}
        title={(block) =>
          holders[block]!.length === 0
            ? fill(t.blockUnheld, { block: number(block) })
            : fill(t.blockOf, { block: number(block), names: holders[block]!.map((m) => m.name).join(t.listSeparator) })
        }
      />
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label={t.modelBlocks}>
        {legend.map((entry) => (
          <li key={entry.key} className="flex items-center gap-1.5" data-testid="block-legend">
            <span
              aria-hidden="true"
              className={`inline-block size-3 rounded-sm ${entry.colour ? '' : 'bg-slate-200'}`}
              style={entry.colour ? { backgroundColor: entry.colour } : undefined}
            />
            <span className="font-medium">{entry.name}</span>
            <span className="text-slate-600">{entry.blocks}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

import type { HostNetwork, HostNetworkMember } from '@meshwork/contracts';
import { fill, useI18n } from '../../i18n';

/** `[0, 1, 2, 5]` as "0–2, 5", in the language's digits. */
function useBlocks() {
  const { t, number } = useI18n();
  return (blocks: number[]): string => {
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

/** The network's devices: who is online and which blocks each runs (the host may remove clients). */
export function Members(props: {
  network: HostNetwork;
  deviceId: string | null;
  busy: boolean;
  onRemove?(member: HostNetworkMember): void;
}) {
  const { t, bytes, number } = useI18n();
  const blocks = useBlocks();
  const { onRemove } = props;
  // The host first, then clients in the order they joined.
  const members = [...props.network.members].sort(
    (a, b) => Number(b.role === 'host') - Number(a.role === 'host') || a.joined_at.localeCompare(b.joined_at),
  );
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <thead>
          <tr className="text-slate-600">
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.memberDevice}
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.memberRoleHeading}
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.memberConnection}
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.memberBlocks}
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.freeMemory}
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.memberSpeed}
            </th>
            {onRemove && (
              <th scope="col" className="py-2">
                <span className="sr-only">{t.actions}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.device_id} className="border-t border-slate-200">
              <th scope="row" className="py-2 pe-3 text-start font-medium">
                {member.name}
                {member.device_id === props.deviceId && (
                  <>
                    {' '}
                    <span className="font-normal text-slate-500">{t.thisDeviceMark}</span>
                  </>
                )}
              </th>
              <td className="py-2 pe-3">{t.memberRole[member.role]}</td>
              <td className="py-2 pe-3" data-testid="member-connection">
                <span className="flex items-center gap-2">
                  <span
                    aria-hidden="true"
                    className={`inline-block size-2 rounded-full ${member.online ? 'bg-emerald-500' : 'bg-slate-400'}`}
                  />
                  {member.online ? t.online : t.offline}
                </span>
              </td>
              <td className="py-2 pe-3" data-testid="member-blocks">
                {blocks(member.blocks)}
              </td>
              <td className="py-2 pe-3">{bytes(member.free_memory_bytes)}</td>
              <td className="py-2 pe-3">{member.speed > 0 ? number(member.speed, { maximumFractionDigits: 1 }) : t.notMeasured}</td>
              {onRemove && (
                <td className="py-2 text-end">
                  {member.role === 'client' && (
                    <button
                      type="button"
                      className="button-danger"
                      disabled={props.busy}
                      aria-label={fill(t.removeMember, { name: member.name })}
                      onClick={() => onRemove(member)}
                    >
                      {t.remove}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

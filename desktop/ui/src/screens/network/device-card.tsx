import type { HostNetworkMember } from '@meshwork/contracts';
import { fill, useI18n } from '../../i18n';
import { ActivityChart } from './activity-chart';
import { useBlockList } from './block-list';
import { BlockStrip } from './block-strip';
import { MemoryBar } from './memory-bar';
import { MemoryHistory } from './memory-history';
import { ShareFiles } from './share-files';

/**
 * One device of the network: who it is (role, connection, speed; the host may remove a client),
 * the model's blocks with those it runs filled in its colour, its work now and over ten minutes,
 * its memory, and its share's files.
 */
export function DeviceCard(props: {
  member: HostNetworkMember;
  colour: string;
  total: number;
  thisDevice: boolean;
  busy: boolean;
  onRemove?(member: HostNetworkMember): void;
}) {
  const { t, number } = useI18n();
  const blockList = useBlockList();
  const { member, colour, total, onRemove } = props;
  const held = new Set(member.blocks);
  const blocksText = total > 0 ? `${blockList(member.blocks)} (${number(held.size)}/${number(total)})` : blockList(member.blocks);
  return (
    <li className="space-y-3 rounded-md border border-slate-200 p-4" aria-labelledby={`device-${member.device_id}`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm" style={{ backgroundColor: colour }} />
          <h3 id={`device-${member.device_id}`} className="font-medium" data-testid="member-name">
            {member.name}
            {props.thisDevice && (
              <>
                {' '}
                <span className="font-normal text-slate-500">{t.thisDeviceMark}</span>
              </>
            )}
          </h3>
        </div>
        {onRemove && member.role === 'client' && (
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
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1.5">
          <dt className="text-slate-600">{t.memberRoleHeading}:</dt>
          <dd data-testid="member-role">{t.memberRole[member.role]}</dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-slate-600">{t.memberConnection}:</dt>
          <dd className="flex items-center gap-1.5" data-testid="member-connection">
            <span aria-hidden="true" className={`inline-block size-2 rounded-full ${member.online ? 'bg-emerald-500' : 'bg-slate-400'}`} />
            {member.online ? t.online : t.offline}
          </dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-slate-600">{t.memberSpeed}:</dt>
          <dd>{member.speed > 0 ? number(member.speed, { maximumFractionDigits: 1 }) : t.notMeasured}</dd>
        </div>
      </dl>
      <div className="space-y-1">
        <h4 className="text-sm text-slate-600">{t.memberBlocks}</h4>
        {total > 0 && (
          <BlockStrip
            total={total}
            label={fill(t.stripLabel, { name: member.name, blocks: blockList(member.blocks), total: number(total) })}
            paint={(block) => (held.has(block) ? { backgroundColor: colour } : null)}
          />
        )}
        <p className="text-sm" data-testid="member-blocks">
          {blocksText}
        </p>
      </div>
      <div className="space-y-1">
        <h4 className="text-sm text-slate-600">{t.memberActivity}</h4>
        <ActivityChart activity={member.activity} colour={colour} />
        {/* Under the work, on the same ten minutes and width: a busy step and its memory line up. */}
        <MemoryHistory activity={member.activity} colour={colour} />
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <div className="space-y-1">
          <h4 className="text-sm text-slate-600">{t.memory}</h4>
          <MemoryBar member={member} colour={colour} />
        </div>
        <ShareFiles share={member.share} colour={colour} />
      </div>
    </li>
  );
}

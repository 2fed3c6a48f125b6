import type { HostNetwork, HostNetworkMember } from '@meshwork/contracts';
import { modelBlockCount } from './block-count';
import { DeviceCard } from './device-card';
import { deviceColours, orderedMembers } from './device-colours';
import { NetworkBlocks } from './network-blocks';

/** The network's devices: the whole model's blocks by device, then each device's share (the host may remove clients). */
export function Members(props: {
  network: HostNetwork;
  deviceId: string | null;
  busy: boolean;
  onRemove?(member: HostNetworkMember): void;
}) {
  const members = orderedMembers(props.network.members);
  const colours = deviceColours(members);
  const total = props.network.block_count ?? modelBlockCount(members);
  return (
    <div className="space-y-4">
      <NetworkBlocks members={members} colours={colours} total={total} />
      <ul className="space-y-3">
        {members.map((member) => (
          <DeviceCard
            key={member.device_id}
            member={member}
            colour={colours.get(member.device_id)!}
            total={total}
            thisDevice={member.device_id === props.deviceId}
            busy={props.busy}
            onRemove={props.onRemove}
          />
        ))}
      </ul>
    </div>
  );
}

import type { HostNetworkMember } from '@meshwork/contracts';

/**
 * How many blocks the network's model has when the state does not say (a client holding no
 * blocks has not read the package): the highest block index any device runs, plus one. Right
 * whenever the devices hold the whole model between them.
 */
export function modelBlockCount(members: readonly HostNetworkMember[]): number {
  let highest = -1;
  for (const member of members) for (const block of member.blocks) highest = Math.max(highest, block);
  return highest + 1;
}

/** For each block of `total`, the devices that run it (in the order given). */
export function holdersByBlock(members: readonly HostNetworkMember[], total: number): HostNetworkMember[][] {
  const holders = Array.from({ length: total }, (): HostNetworkMember[] => []);
  for (const member of members) for (const block of new Set(member.blocks)) if (block < total) holders[block]!.push(member);
  return holders;
}

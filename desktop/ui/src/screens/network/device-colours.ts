import type { HostNetworkMember } from '@meshwork/contracts';

/**
 * One colour per device, so the network's block strip reads at a glance: the Okabe–Ito palette
 * (told apart with the common colour blindnesses), without its yellow, which white shows poorly.
 * Colour is never the only cue: every strip and bar also says whose and how much in words.
 */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#555555'] as const;

/** The network's devices in the order the window lists them: the host first, then clients in the order they joined. */
export function orderedMembers(members: readonly HostNetworkMember[]): HostNetworkMember[] {
  return [...members].sort((a, b) => Number(b.role === 'host') - Number(a.role === 'host') || a.joined_at.localeCompare(b.joined_at));
}

/** Each device's colour by its place in that order (a network of more devices than colours reuses them). */
export function deviceColours(ordered: readonly HostNetworkMember[]): Map<string, string> {
  return new Map(ordered.map((member, i) => [member.device_id, PALETTE[i % PALETTE.length]!]));
}

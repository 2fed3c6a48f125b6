/**
 * Which device runs which blocks: contiguous runs in the order given, the devices in their order
 * (the host first), each device's share of the work in proportion to its measured speed, and
 * never more block memory than the device has free.
 */
export interface AssignableBlock {
  index: number;
  /** The block's work, in any unit (the planner uses its weights' bytes: a token reads each once). */
  cost: number;
  memoryBytes: number;
}

export interface AssignableDevice {
  id: string;
  freeMemoryBytes: number;
  speed: number;
}

/** Leave this share of a device's free memory to everything else it runs. */
const MEMORY_HEADROOM = 0.8;

export class CannotAssign extends Error {}

/** Device id → the block indices it runs (devices given none are left out). */
export function assignBlocks(blocks: readonly AssignableBlock[], devices: readonly AssignableDevice[]): Map<string, number[]> {
  const usable = devices.filter((d) => d.speed > 0);
  if (usable.length === 0) throw new CannotAssign('No device of the network can run the model.');
  const totalCost = blocks.reduce((sum, b) => sum + b.cost, 0);
  const totalSpeed = usable.reduce((sum, d) => sum + d.speed, 0);
  const assignment = new Map<string, number[]>();
  let device = 0;
  let costBefore = 0; // work given to the devices before this one
  let target = (usable[0]!.speed / totalSpeed) * totalCost; // where this device's share ends
  let memoryUsed = 0;
  let costDone = 0;
  for (const block of blocks) {
    for (;;) {
      const current = usable[device];
      if (!current) throw new CannotAssign(`The network's devices have too little free memory for block ${block.index} of the model.`);
      const held = assignment.get(current.id) ?? [];
      const fits = memoryUsed + block.memoryBytes <= current.freeMemoryBytes * MEMORY_HEADROOM;
      // Past its share, a device takes the block only if that lands nearer its share than stopping would.
      const overShare = costDone + block.cost - target > target - costDone;
      const isLast = device === usable.length - 1;
      if (fits && (held.length === 0 ? costDone < target || isLast : !overShare || isLast)) {
        assignment.set(current.id, [...held, block.index]);
        memoryUsed += block.memoryBytes;
        costDone += block.cost;
        break;
      }
      device++;
      memoryUsed = 0;
      costBefore = costDone;
      if (usable[device]) target = costBefore + (usable[device]!.speed / totalSpeed) * totalCost;
    }
  }
  return assignment;
}

/**
 * The plan a network runs: contiguous runs of the blocks taken in cyclic order from each block in
 * turn, the host first, and of those the one where the host runs the model's head (the last
 * block: the vocabulary's logits, 192 KB a token for SmolLM2, never cross the LAN, only the
 * residual stream's 2.3 KB does), then whose slowest device takes least time a token (its
 * blocks' cost over its speed: the pace of concurrent chats), then with the fewest stages (hops
 * a token makes). Starting anywhere rather than at the head lets the host's run end on either
 * side of it, which is what balances a model's few blocks between two devices.
 */
export function planAssignment(blocks: readonly AssignableBlock[], devices: readonly AssignableDevice[]): Map<string, number[]> {
  const head = blocks[blocks.length - 1]?.index;
  const speedOf = new Map(devices.map((d) => [d.id, d.speed]));
  const costOf = new Map(blocks.map((b) => [b.index, b.cost]));
  let best: { assignment: Map<string, number[]>; score: [number, number, number] } | null = null;
  let refusal: CannotAssign | null = null;
  for (let start = 0; start < blocks.length; start++) {
    let assignment: Map<string, number[]>;
    try {
      assignment = assignBlocks([...blocks.slice(start), ...blocks.slice(0, start)], devices);
    } catch (error) {
      if (!(error instanceof CannotAssign)) throw error;
      refusal = error;
      continue;
    }
    const slowest = Math.max(
      ...[...assignment].map(([id, held]) => held.reduce((sum, index) => sum + costOf.get(index)!, 0) / speedOf.get(id)!),
    );
    const score: [number, number, number] = [assignment.get(devices[0]!.id)?.includes(head!) ? 0 : 1, slowest, stagesOf(assignment).length];
    const differs = best ? score.findIndex((value, i) => value !== best!.score[i]) : -1;
    if (!best || (differs >= 0 && score[differs]! < best.score[differs]!)) best = { assignment, score };
  }
  if (!best) throw refusal ?? new CannotAssign('The model has no blocks.');
  return best.assignment;
}

/** The stages of an assignment: each device's blocks as maximal runs [first, end), in the model's order. */
export function stagesOf(assignment: Map<string, number[]>): { deviceId: string; first: number; end: number }[] {
  const stages: { deviceId: string; first: number; end: number }[] = [];
  for (const [deviceId, blocks] of assignment) {
    for (const index of [...blocks].sort((a, b) => a - b)) {
      const last = stages.findLast((s) => s.deviceId === deviceId);
      if (last && last.end === index) last.end++;
      else stages.push({ deviceId, first: index, end: index + 1 });
    }
  }
  return stages.sort((a, b) => a.first - b.first);
}

/**
 * What a token costs in each block: the multiply-adds the packer recorded (`work`). A package
 * made before they were recorded is costed by weight bytes read: a token reads every weight of a
 * block's layers once, and of the last block's head. The first block's embedding is a lookup of
 * one row, so its layers alone count (bytes a layer: the least of any block's, the blocks at
 * either end carrying extras).
 */
export function blockCosts(
  blocks: readonly { layers: readonly [number, number]; weights: { bytes: number }; work?: number | undefined }[],
): number[] {
  if (blocks.every((b) => b.work !== undefined)) return blocks.map((b) => b.work!);
  const layerCount = (b: (typeof blocks)[number]) => Math.max(1, b.layers[1] - b.layers[0]);
  const perLayer = Math.min(...blocks.map((b) => b.weights.bytes / layerCount(b)));
  return blocks.map((b, i) => (i === 0 && blocks.length > 1 ? layerCount(b) * perLayer : b.weights.bytes));
}

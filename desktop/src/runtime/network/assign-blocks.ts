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

/** Block memory a device with `freeMemoryBytes` free may be given. */
const roomOf = (freeMemoryBytes: number) => freeMemoryBytes * MEMORY_HEADROOM;

/** The devices cannot run the model; `neededBytes` is how much more free memory would let them. */
export class CannotAssign extends Error {
  constructor(
    message: string,
    /**
     * The free memory one more device (after these) would need for the model to fit, headroom
     * included: never less than the blocks' total less what these devices can give, nor than a
     * block larger than any of them needs. 0 when memory is not what is missing.
     */
    readonly neededBytes: number,
  ) {
    super(message);
  }
}

/** Device id → the block indices it runs (devices given none are left out). */
export function assignBlocks(blocks: readonly AssignableBlock[], devices: readonly AssignableDevice[]): Map<string, number[]> {
  const usable = devices.filter((d) => d.speed > 0);
  if (usable.length === 0) throw new CannotAssign('No device of the network can run the model.', 0);
  const short = unplacedBytes(blocks, usable, 0);
  if (short > 0)
    throw new CannotAssign(
      `The network's devices have too little free memory for the model: ${megabytes(freeNeededFor(short))} MB more would let them hold it.`,
      freeNeededFor(short),
    );
  const totalCost = blocks.reduce((sum, b) => sum + b.cost, 0);
  const totalSpeed = usable.reduce((sum, d) => sum + d.speed, 0);
  const assignment = new Map<string, number[]>();
  let device = 0;
  let target = (usable[0]!.speed / totalSpeed) * totalCost; // where this device's share ends
  let memoryUsed = 0;
  let costDone = 0;
  for (const [i, block] of blocks.entries()) {
    for (;;) {
      const current = usable[device]!; // the devices hold every block (checked above), so one is left
      const held = assignment.get(current.id) ?? [];
      const fits = memoryUsed + block.memoryBytes <= roomOf(current.freeMemoryBytes);
      // Past its share, a device takes the block only if that lands nearer its share than stopping would,
      // or if the devices after it could not hold the rest: memory comes before balance.
      const overShare = costDone + block.cost - target > target - costDone;
      const restNeedsIt = () => unplacedBytes(blocks.slice(i), usable.slice(device + 1), 0) > 0;
      if (fits && ((held.length === 0 ? costDone < target : !overShare) || restNeedsIt())) {
        assignment.set(current.id, [...held, block.index]);
        memoryUsed += block.memoryBytes;
        costDone += block.cost;
        break;
      }
      device++;
      memoryUsed = 0;
      if (usable[device]) target = costDone + (usable[device]!.speed / totalSpeed) * totalCost;
    }
  }
  return assignment;
}

/**
 * Bytes of blocks left over when each device in turn takes as many of the blocks as fit, the
 * first starting with `firstUsed` taken. For runs in a fixed order of devices this places the
 * most there is to place: a plan exists exactly when it leaves nothing.
 */
function unplacedBytes(blocks: readonly AssignableBlock[], devices: readonly AssignableDevice[], firstUsed: number): number {
  let next = 0;
  let used = firstUsed;
  for (const device of devices) {
    while (next < blocks.length && used + blocks[next]!.memoryBytes <= roomOf(device.freeMemoryBytes)) used += blocks[next++]!.memoryBytes;
    used = 0;
  }
  return blocks.slice(next).reduce((sum, b) => sum + b.memoryBytes, 0);
}

/** The free memory a device needs to be given `bytes` of blocks (the least whole count, headroom included). */
function freeNeededFor(bytes: number): number {
  let free = Math.ceil(bytes / MEMORY_HEADROOM);
  while (roomOf(free) < bytes) free++; // the division's rounding
  return free;
}

const megabytes = (bytes: number) => Math.ceil(bytes / 1e6).toLocaleString('en');

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
      if (!refusal || error.neededBytes < refusal.neededBytes) refusal = error; // the plan nearest to fitting
      continue;
    }
    const slowest = Math.max(
      ...[...assignment].map(([id, held]) => held.reduce((sum, index) => sum + costOf.get(index)!, 0) / speedOf.get(id)!),
    );
    const score: [number, number, number] = [assignment.get(devices[0]!.id)?.includes(head!) ? 0 : 1, slowest, stagesOf(assignment).length];
    const differs = best ? score.findIndex((value, i) => value !== best!.score[i]) : -1;
    if (!best || (differs >= 0 && score[differs]! < best.score[differs]!)) best = { assignment, score };
  }
  if (!best) throw refusal ?? new CannotAssign('The model has no blocks.', 0);
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

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
 * The order blocks are handed out in: the last block first, then the others in order. The host
 * comes first among the devices, so it runs the model's head (the last block) besides the first
 * ones: the vocabulary's logits (192 KB a token for SmolLM2) never cross the LAN, only the
 * residual stream (2.3 KB) does.
 */
export function headFirst<Block extends { index: number }>(blocks: readonly Block[]): Block[] {
  return blocks.length < 2 ? [...blocks] : [blocks[blocks.length - 1]!, ...blocks.slice(0, -1)];
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
 * What a token costs in each block, in weight bytes read: a token reads every weight of a
 * block's layers once, and of the last block's head. The first block's embedding is a lookup of
 * one row, so its layers alone count (bytes a layer: the least of any block's, the blocks at
 * either end carrying extras).
 */
export function blockCosts(blocks: readonly { layers: readonly [number, number]; weights: { bytes: number } }[]): number[] {
  const layerCount = (b: (typeof blocks)[number]) => Math.max(1, b.layers[1] - b.layers[0]);
  const perLayer = Math.min(...blocks.map((b) => b.weights.bytes / layerCount(b)));
  return blocks.map((b, i) => (i === 0 && blocks.length > 1 ? layerCount(b) * perLayer : b.weights.bytes));
}

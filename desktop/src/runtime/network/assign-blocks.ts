/**
 * Which device runs which blocks: contiguous runs in the devices' order (the host first, so the
 * prompt's ids need not cross the LAN), each device's share of the layers in proportion to its
 * measured speed, and never more block memory than the device has free.
 */
export interface AssignableBlock {
  index: number;
  layers: number;
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
  const totalLayers = blocks.reduce((sum, b) => sum + b.layers, 0);
  const totalSpeed = usable.reduce((sum, d) => sum + d.speed, 0);
  const assignment = new Map<string, number[]>();
  let device = 0;
  let layersBefore = 0; // layers given to the devices before this one
  let target = (usable[0]!.speed / totalSpeed) * totalLayers; // where this device's share ends, in layers
  let memoryUsed = 0;
  let layersDone = 0;
  for (const block of blocks) {
    for (;;) {
      const current = usable[device];
      if (!current) throw new CannotAssign(`The network's devices have too little free memory for block ${block.index} of the model.`);
      const held = assignment.get(current.id) ?? [];
      const fits = memoryUsed + block.memoryBytes <= current.freeMemoryBytes * MEMORY_HEADROOM;
      // Past its share, a device takes the block only if that lands nearer its share than stopping would.
      const overShare = layersDone + block.layers - target > target - layersDone;
      const isLast = device === usable.length - 1;
      if (fits && (held.length === 0 ? layersDone < target || isLast : !overShare || isLast)) {
        assignment.set(current.id, [...held, block.index]);
        memoryUsed += block.memoryBytes;
        layersDone += block.layers;
        break;
      }
      device++;
      memoryUsed = 0;
      layersBefore = layersDone;
      if (usable[device]) target = layersBefore + (usable[device]!.speed / totalSpeed) * totalLayers;
    }
  }
  return assignment;
}

/**
 * Splits a model's layers into blocks of about equal weight, counting the embedding into the
 * first block and the output head into the last, so no device gets a block much heavier than
 * the others. Every block holds at least one layer.
 */
import type { BlockRange } from './block-weights';

export interface BlockCosts {
  layers: number;
  blocks: number;
  layerBytes: number;
  firstExtraBytes: number;
  lastExtraBytes: number;
}

export function planBlocks({ layers, blocks, layerBytes, firstExtraBytes, lastExtraBytes }: BlockCosts): BlockRange[] {
  if (!Number.isInteger(blocks) || blocks < 1) throw new RangeError('--blocks must be a whole number, 1 or more');
  if (blocks > layers) throw new RangeError(`A model of ${layers} layers splits into at most ${layers} blocks`);
  const total = firstExtraBytes + layers * layerBytes + lastExtraBytes;
  const ranges: BlockRange[] = [];
  let first = 0;
  for (let b = 0; b < blocks - 1; b++) {
    // End this block where the running weight comes closest to its share, leaving a layer for each later block.
    const target = (total * (b + 1)) / blocks;
    const weightUpTo = (end: number) => firstExtraBytes + end * layerBytes;
    let end = first + 1;
    while (end < layers - (blocks - 1 - b) && Math.abs(weightUpTo(end + 1) - target) < Math.abs(weightUpTo(end) - target)) end++;
    ranges.push({ first, end });
    first = end;
  }
  ranges.push({ first, end: layers });
  return ranges;
}

/**
 * Splits a model's layers into blocks of about equal cost, counting the first block's and the
 * last block's extras (the packer counts work: the output head's product, and nothing for the
 * embedding, which a token only looks up), so no device gets a block much heavier than the
 * others. Every block holds at least one layer.
 */
import type { BlockRange } from './block-weights';

export interface BlockCosts {
  layers: number;
  blocks: number;
  layerCost: number;
  firstExtraCost: number;
  lastExtraCost: number;
}

export function planBlocks({ layers, blocks, layerCost, firstExtraCost, lastExtraCost }: BlockCosts): BlockRange[] {
  if (!Number.isInteger(blocks) || blocks < 1) throw new RangeError('--blocks must be a whole number, 1 or more');
  if (blocks > layers) throw new RangeError(`A model of ${layers} layers splits into at most ${layers} blocks`);
  const total = firstExtraCost + layers * layerCost + lastExtraCost;
  const ranges: BlockRange[] = [];
  let first = 0;
  for (let b = 0; b < blocks - 1; b++) {
    // End this block where the running cost comes closest to its share, leaving a layer for each later block.
    const target = (total * (b + 1)) / blocks;
    const costUpTo = (end: number) => firstExtraCost + end * layerCost;
    let end = first + 1;
    while (end < layers - (blocks - 1 - b) && Math.abs(costUpTo(end + 1) - target) < Math.abs(costUpTo(end) - target)) end++;
    ranges.push({ first, end });
    first = end;
  }
  ranges.push({ first, end: layers });
  return ranges;
}

import { planBlocks } from './plan-blocks';

describe('splitting layers into blocks', () => {
  const model = { layers: 30, layerCost: 2_300_000, firstExtraCost: 29_000_000, lastExtraCost: 29_000_000 };

  it('one block holds every layer', () => {
    expect(planBlocks({ ...model, blocks: 1 })).toEqual([{ first: 0, end: 30 }]);
  });

  it('three blocks cover the layers in order, lighter first and last blocks for the embedding and head', () => {
    const ranges = planBlocks({ ...model, blocks: 3 });
    expect(ranges[0]!.first).toBe(0);
    expect(ranges[2]!.end).toBe(30);
    expect(ranges[1]!.first).toBe(ranges[0]!.end);
    expect(ranges[2]!.first).toBe(ranges[1]!.end);
    const weight = ranges.map(
      (r, i) => (r.end - r.first) * model.layerCost + (i === 0 ? model.firstExtraCost : 0) + (i === 2 ? model.lastExtraCost : 0),
    );
    expect(Math.max(...weight) / Math.min(...weight)).toBeLessThan(1.15);
    expect(ranges[1]!.end - ranges[1]!.first).toBeGreaterThan(ranges[0]!.end - ranges[0]!.first);
  });

  it('six blocks of SmolLM2 by work: a lookup costs nothing, the head eight layers, so the first block holds the most layers', () => {
    // 30 layers of 3.54 M multiply-adds a token; the head 49152 × 576.
    const ranges = planBlocks({ layers: 30, blocks: 6, layerCost: 3_538_944, firstExtraCost: 0, lastExtraCost: 49_152 * 576 });
    expect(ranges.map((r) => [r.first, r.end])).toEqual([
      [0, 6],
      [6, 13],
      [13, 19],
      [19, 25],
      [25, 29],
      [29, 30],
    ]);
  });

  it('as many blocks as layers gives one layer each, even with heavy ends', () => {
    const ranges = planBlocks({ layers: 4, blocks: 4, layerCost: 1, firstExtraCost: 100, lastExtraCost: 100 });
    expect(ranges).toEqual([0, 1, 2, 3].map((first) => ({ first, end: first + 1 })));
  });

  it('refuses more blocks than layers, and a count that is not a whole number', () => {
    expect(() => planBlocks({ ...model, blocks: 31 })).toThrow('A model of 30 layers splits into at most 30 blocks');
    expect(() => planBlocks({ ...model, blocks: 0 })).toThrow('--blocks must be a whole number, 1 or more');
    expect(() => planBlocks({ ...model, blocks: 2.5 })).toThrow('--blocks must be a whole number, 1 or more');
  });
});

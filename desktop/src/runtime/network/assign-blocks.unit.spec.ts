import { assignBlocks, blockCosts, CannotAssign, planAssignment, stagesOf } from './assign-blocks';

const blocks = (count: number, cost = 10, memoryBytes = 100) => Array.from({ length: count }, (_, index) => ({ index, cost, memoryBytes }));
const device = (id: string, speed = 1, freeMemoryBytes = 10_000) => ({ id, speed, freeMemoryBytes });
const asObject = (map: Map<string, number[]>) => Object.fromEntries(map);
const catchRefusal = (plan: () => unknown): CannotAssign => {
  try {
    plan();
  } catch (error) {
    if (error instanceof CannotAssign) return error;
    throw error;
  }
  throw new Error('The plan was made');
};

describe('assigning a model’s blocks to the devices of a network', () => {
  it('gives equal devices equal runs, in order, the host first', () => {
    expect(asObject(assignBlocks(blocks(3), [device('host'), device('a'), device('b')]))).toEqual({ host: [0], a: [1], b: [2] });
    expect(asObject(assignBlocks(blocks(6), [device('host'), device('a'), device('b')]))).toEqual({
      host: [0, 1],
      a: [2, 3],
      b: [4, 5],
    });
  });

  it('gives a faster device a larger share', () => {
    const assignment = assignBlocks(blocks(8), [device('host', 3), device('slow', 1)]);
    expect(asObject(assignment)).toEqual({ host: [0, 1, 2, 3, 4, 5], slow: [6, 7] });
  });

  it('never gives a device more block memory than 80% of what it has free', () => {
    const assignment = assignBlocks(blocks(4), [device('host', 1, 130), device('big', 1, 10_000)]);
    expect(asObject(assignment)).toEqual({ host: [0], big: [1, 2, 3] });
  });

  it('runs everything on one device when it is alone', () => {
    expect(asObject(assignBlocks(blocks(3), [device('host')]))).toEqual({ host: [0, 1, 2] });
  });

  it('says so when the devices together cannot hold the model, or none can run it', () => {
    expect(() => assignBlocks(blocks(4), [device('host', 1, 200), device('a', 1, 200)])).toThrow(CannotAssign);
    expect(() => assignBlocks(blocks(4), [device('host', 0)])).toThrow(/No device/);
  });

  it('gives a device more than its share of the work when the devices after it could not hold the rest', () => {
    // A fast device with room for one block: balance alone would leave the host a sliver and refuse the model.
    const assignment = assignBlocks(blocks(4), [device('host', 1, 10_000), device('fast', 100, 130)]);
    expect(asObject(assignment)).toEqual({ host: [0, 1, 2], fast: [3] });
  });

  it('says how much more free memory the network needs, enough that one more device with it makes the model fit', () => {
    const two = [device('host', 1, 200), device('a', 1, 200)];
    // Each holds one of the four 100-byte blocks (80% of 200): the other two need a device with 250 free.
    const refusal = catchRefusal(() => planAssignment(blocks(4), two));
    expect(refusal.neededBytes).toBe(250);
    // Never less than the blocks' total less what the devices can give.
    expect(refusal.neededBytes).toBeGreaterThanOrEqual(400 / 0.8 - 400);
    expect(refusal.message).toMatch(/too little free memory/);
    expect([...planAssignment(blocks(4), [...two, device('b', 1, refusal.neededBytes)]).values()].flat().sort()).toEqual([0, 1, 2, 3]);
    expect(() => planAssignment(blocks(4), [...two, device('b', 1, refusal.neededBytes - 1)])).toThrow(CannotAssign);
  });

  it('counts a block larger than any device whole, from the plan nearest to fitting', () => {
    const model = [100, 1000, 100].map((memoryBytes, index) => ({ index, cost: 10, memoryBytes }));
    const refusal = catchRefusal(() => planAssignment(model, [device('host', 1, 500), device('a', 1, 500)]));
    // The devices have room for everything but the big block, which alone needs 1,250 free.
    expect(refusal.neededBytes).toBe(1250);
    expect(catchRefusal(() => assignBlocks(blocks(2), [device('host', 0)])).neededBytes).toBe(0);
  });

  it('leaves out a device that gets no block (more devices than blocks)', () => {
    const assignment = assignBlocks(blocks(2), [device('host'), device('a'), device('b')]);
    expect([...assignment.values()].flat()).toEqual([0, 1]);
    expect(assignment.size).toBe(2);
  });

  it('plans the host holding the model’s head (the last block), then the slowest device’s time least, then fewest stages', () => {
    const assignment = planAssignment(blocks(6), [device('host'), device('a'), device('b')]);
    expect(asObject(assignment)).toEqual({ host: [4, 5], a: [0, 1], b: [2, 3] });
    expect(stagesOf(assignment)).toEqual([
      { deviceId: 'a', first: 0, end: 2 },
      { deviceId: 'b', first: 2, end: 4 },
      { deviceId: 'host', first: 4, end: 6 },
    ]);
    expect(stagesOf(planAssignment(blocks(6), [device('host')]))).toEqual([{ deviceId: 'host', first: 0, end: 6 }]);
  });

  it('starts the host’s run anywhere before the head, which balances SmolLM2’s six blocks between two devices', () => {
    // Work a token, in layers: a heavy head in the last block, a light fifth one.
    const smol = [6, 7, 6, 6, 4, 9].map((cost, index) => ({ index, cost, memoryBytes: 100 }));
    const assignment = planAssignment(smol, [device('host'), device('a')]);
    expect(asObject(assignment)).toEqual({ host: [3, 4, 5], a: [0, 1, 2] });
    expect(stagesOf(assignment).map((s) => s.deviceId)).toEqual(['a', 'host']);
  });

  it('gives the head to another device when the host cannot hold it, and says so when no plan fits', () => {
    const heavyHead = [...blocks(3), { index: 3, cost: 10, memoryBytes: 1000 }];
    const assignment = planAssignment(heavyHead, [device('host', 1, 300), device('big', 1, 10_000)]);
    expect(assignment.get('big')).toContain(3);
    expect(assignment.get('host')?.length).toBeGreaterThan(0);
    expect(() => planAssignment(blocks(4), [device('host', 1, 200), device('a', 1, 200)])).toThrow(CannotAssign);
  });

  it('counts what a token reads: the first block’s layers (its embedding is a lookup), every other block whole', () => {
    const packed = [
      { layers: [0, 5] as const, weights: { bytes: 5 * 100 + 3000 } },
      { layers: [5, 25] as const, weights: { bytes: 20 * 100 } },
      { layers: [25, 30] as const, weights: { bytes: 5 * 100 + 3000 } },
    ];
    expect(blockCosts(packed)).toEqual([500, 2000, 3500]);
  });

  it('counts the multiply-adds the packer recorded, when every block has them', () => {
    const packed = [
      { layers: [0, 5] as const, weights: { bytes: 3500 }, work: 50 },
      { layers: [5, 25] as const, weights: { bytes: 2000 }, work: 200 },
      { layers: [25, 30] as const, weights: { bytes: 3500 }, work: 130 },
    ];
    expect(blockCosts(packed)).toEqual([50, 200, 130]);
    expect(blockCosts([packed[0]!, { ...packed[1]!, work: undefined }, packed[2]!])).toEqual([500, 2000, 3500]);
  });
});

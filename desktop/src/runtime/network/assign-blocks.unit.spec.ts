import { assignBlocks, blockCosts, CannotAssign, headFirst, stagesOf } from './assign-blocks';

const blocks = (count: number, cost = 10, memoryBytes = 100) => Array.from({ length: count }, (_, index) => ({ index, cost, memoryBytes }));
const device = (id: string, speed = 1, freeMemoryBytes = 10_000) => ({ id, speed, freeMemoryBytes });
const asObject = (map: Map<string, number[]>) => Object.fromEntries(map);

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

  it('leaves out a device that gets no block (more devices than blocks)', () => {
    const assignment = assignBlocks(blocks(2), [device('host'), device('a'), device('b')]);
    expect([...assignment.values()].flat()).toEqual([0, 1]);
    expect(assignment.size).toBe(2);
  });

  it('gives the host the model’s head (the last block) with the first ones, so logits stay on the host', () => {
    const assignment = assignBlocks(headFirst(blocks(6)), [device('host'), device('a'), device('b')]);
    expect(asObject(assignment)).toEqual({ host: [5, 0], a: [1, 2], b: [3, 4] });
    expect(stagesOf(assignment)).toEqual([
      { deviceId: 'host', first: 0, end: 1 },
      { deviceId: 'a', first: 1, end: 3 },
      { deviceId: 'b', first: 3, end: 5 },
      { deviceId: 'host', first: 5, end: 6 },
    ]);
    expect(stagesOf(assignBlocks(headFirst(blocks(6)), [device('host')]))).toEqual([{ deviceId: 'host', first: 0, end: 6 }]);
  });

  it('counts what a token reads: the first block’s layers (its embedding is a lookup), every other block whole', () => {
    const packed = [
      { layers: [0, 5] as const, weights: { bytes: 5 * 100 + 3000 } },
      { layers: [5, 25] as const, weights: { bytes: 20 * 100 } },
      { layers: [25, 30] as const, weights: { bytes: 5 * 100 + 3000 } },
    ];
    expect(blockCosts(packed)).toEqual([500, 2000, 3500]);
  });
});

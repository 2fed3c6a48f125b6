import { loadPatiently } from './load-patiently';

/** A load that fails its first `failures` tries, counting them. */
function flaky(failures: number) {
  let tries = 0;
  const load = async () => {
    tries += 1;
    if (tries <= failures) throw new Error(`try ${tries} failed`);
    return `loaded on try ${tries}`;
  };
  return { load, tries: () => tries };
}

describe('loadPatiently', () => {
  it('answers at the first try that succeeds', async () => {
    const once = flaky(0);
    expect(await loadPatiently(once.load, [0, 0])).toBe('loaded on try 1');
    const third = flaky(2);
    expect(await loadPatiently(third.load, [0, 0])).toBe('loaded on try 3');
    expect(third.tries()).toBe(3);
  });

  it('tries once more than there are delays, then fails with the last failure', async () => {
    const never = flaky(Infinity);
    await expect(loadPatiently(never.load, [0, 0])).rejects.toThrow('try 3 failed');
    expect(never.tries()).toBe(3);
  });
});

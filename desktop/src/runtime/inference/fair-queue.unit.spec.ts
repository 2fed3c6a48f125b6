import { FairQueue, QueueFull } from './fair-queue';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the fair request queue', () => {
  it('runs one job at a time and takes clients in turn', async () => {
    const queue = new FairQueue();
    const order: string[] = [];
    const release: (() => void)[] = [];
    const job = (name: string) => () =>
      new Promise<void>((resolve) => {
        order.push(name);
        release.push(resolve);
      });
    const all = [
      queue.run('a', job('a1')),
      queue.run('a', job('a2')),
      queue.run('a', job('a3')),
      queue.run('b', job('b1')),
      queue.run('c', job('c1')),
      queue.run('b', job('b2')),
    ];
    for (let i = 0; i < all.length; i++) {
      await tick();
      expect(order).toHaveLength(i + 1); // nothing starts before the one running ends
      release[i]!();
    }
    await Promise.all(all);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('bounds each client’s waiting requests and drops one cancelled while it waits', async () => {
    const queue = new FairQueue(1);
    let finish!: () => void;
    const running = queue.run('a', () => new Promise<void>((resolve) => (finish = resolve)));
    const abort = new AbortController();
    const waiting = queue.run('b', async () => 'ran', abort.signal);
    await expect(queue.run('b', async () => 'too many')).rejects.toBeInstanceOf(QueueFull);
    abort.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    expect(queue.length).toBe(0);
    finish();
    await running;
    await expect(queue.run('b', async () => 'ran')).resolves.toBe('ran');
  });
});

/** A client already has as many requests waiting as it may. */
export class QueueFull extends Error {}

interface Job {
  start(): void;
  cancel(reason: Error): void;
}

/**
 * Runs jobs one at a time (or as many at once as `concurrency` says), taking clients in turn: the next job is the oldest waiting one of
 * the client served least recently, so a client with ten requests waiting does not make the
 * next client's one request wait behind all ten. Each client may have `perClient` requests
 * waiting; a request whose signal aborts while it waits leaves the queue. Clients are api keys
 * (a handful), so remembering when each was last served costs nothing.
 */
export class FairQueue {
  private readonly waiting = new Map<string, Job[]>();
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private running = 0;

  constructor(
    private readonly perClient = 8,
    /** Jobs that may run at once (read before each start: it may change). */
    private readonly concurrency: () => number = () => 1,
  ) {}

  get length(): number {
    let total = 0;
    for (const jobs of this.waiting.values()) total += jobs.length;
    return total;
  }

  run<T>(client: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const jobs = this.waiting.get(client) ?? [];
    if (jobs.length >= this.perClient) return Promise.reject(new QueueFull(`This client already has ${this.perClient} requests waiting`));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const list = this.waiting.get(client);
        const at = list?.indexOf(job) ?? -1;
        if (at >= 0) list!.splice(at, 1);
        if (list?.length === 0) this.waiting.delete(client);
        job.cancel(signal!.reason instanceof Error ? signal!.reason : new Error('Cancelled'));
      };
      const job: Job = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          work()
            .then(resolve, reject)
            .finally(() => {
              this.running--;
              this.next();
            });
        },
        cancel: reject,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(client, [...jobs, job]);
      this.next();
    });
  }

  private next(): void {
    if (this.running >= Math.max(1, this.concurrency())) return;
    let client: string | undefined;
    for (const candidate of this.waiting.keys())
      if (client === undefined || (this.lastServed.get(candidate) ?? -1) < (this.lastServed.get(client) ?? -1)) client = candidate;
    if (client === undefined) return;
    const jobs = this.waiting.get(client)!;
    const job = jobs.shift()!;
    if (jobs.length === 0) this.waiting.delete(client);
    this.lastServed.set(client, this.served++);
    this.running++;
    job.start();
    this.next();
  }
}

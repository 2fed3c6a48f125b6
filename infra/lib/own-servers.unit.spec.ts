import { ownServers } from './own-servers.cjs';

type Result = { name: string; started: boolean };
type OnResult = (result: Result | Error) => void;

/** infra's up and down over a machine where `running` already run; `up` answers when `finish()` is called. */
function machine(running: string[]) {
  const stopped: string[][] = [];
  let finish = () => {};
  const up = (list: string[] = ['postgres', 'kafka', 'minio'], { onResult }: { onResult: OnResult }) =>
    new Promise<Result[]>((resolve, reject) => {
      finish = () => {
        const results = list.filter((name) => name !== 'broken').map((name) => ({ name, started: !running.includes(name) }));
        results.forEach(onResult);
        if (list.includes('broken')) reject(new Error('infra up failed: broken'));
        else resolve(results);
      };
    });
  const down = async (names: string[]) => void stopped.push(names);
  return { up, down, stopped, finish: () => finish() };
}

describe('the servers of one command', () => {
  it('stops exactly the ones it started, leaving those that were running', async () => {
    const infra = machine(['postgres']);
    const servers = ownServers(infra);
    const starting = servers.start(['postgres', 'minio']);
    infra.finish();
    await starting;

    await servers.stop();

    expect(infra.stopped).toEqual([['minio']]);
  });

  it('stops nothing when every one was running (down() with no names would stop them all)', async () => {
    const infra = machine(['postgres', 'kafka', 'minio']);
    const servers = ownServers(infra);
    const starting = servers.start();
    infra.finish();
    await starting;

    await servers.stop();
    await ownServers(infra).stop(); // stopped before it started anything: interrupted at once

    expect(infra.stopped).toEqual([]);
  });

  it('stops the ones it started when starting another failed', async () => {
    const infra = machine([]);
    const servers = ownServers(infra);
    const starting = servers.start(['postgres', 'broken']);
    infra.finish();
    await expect(starting).rejects.toThrow('broken');

    await servers.stop();

    expect(infra.stopped).toEqual([['postgres']]);
  });

  it('interrupted during a start, waits for it and stops what it launched, once', async () => {
    const infra = machine([]);
    const servers = ownServers(infra);
    void servers.start(['kafka']);

    const stopping = Promise.all([servers.stop(), servers.stop()]);
    infra.finish();
    await stopping;

    expect(infra.stopped).toEqual([['kafka']]);
  });
});

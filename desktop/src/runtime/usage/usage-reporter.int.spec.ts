import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCustomer } from '@meshwork/testkit/api/accounts';
import { deviceHost, signInDevice } from '@meshwork/testkit/api/devices';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { apiRelay } from '@meshwork/testkit/desktop/host-harness';
import { eventually } from '@meshwork/testkit/eventually';
import { ApiClient } from '../api/api-client';
import { UsageLedger } from './usage-ledger';
import { UsageReporter } from './usage-reporter';

/**
 * The reporter against the real api, through a relay the test can cut: queued while offline,
 * sent with backoff once back, and a resend after a crash (the platform had it, the host had
 * not noted it) counted once.
 */
describe('usage reporter: offline, back online, resent', () => {
  let world: NetworksWorld;
  let relay: Awaited<ReturnType<typeof apiRelay>>;
  let dir: string;
  let owner: TestCustomer;
  let sender: { deviceId: string; api: ApiClient };
  const logs: string[] = [];

  beforeAll(async () => {
    world = await networksWorld();
    relay = await apiRelay(Number(new URL(world.base).port));
    dir = await mkdtemp(join(tmpdir(), 'usage-reporter-'));
    owner = await world.customer();
    const tokens = await signInDevice(deviceHost(world.subject.app), owner);
    const api = new ApiClient(relay.base, tokens, { onRotate: async () => undefined, onSignedOut: () => undefined });
    sender = { deviceId: tokens.device_id, api };
  });
  afterAll(async () => {
    await relay?.close();
    await world?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const answer = { requests: 1, prompt_tokens: 37, completion_tokens: 7, busy_ms: 250 };
  const totals = async () => (await owner.get('/users/usage-stats/').expect(200)).body.usage.totals;

  it('queues while the api cannot be reached, retries with backoff, and sends once it is back', async () => {
    const path = join(dir, 'usage.jsonl');
    const ledger = await UsageLedger.open(path);
    await ledger.record(sender.deviceId, 'smollm2', answer);
    await ledger.record(sender.deviceId, 'smollm2', answer);
    relay.cut();
    const reporter = new UsageReporter(ledger, () => sender, { everyMs: 2_000, retryMs: 20, log: (m) => logs.push(m) });
    reporter.start();
    await eventually(async () => logs.filter((m) => m.includes('will retry')).length >= 3, 'three failed tries');
    expect(ledger.pending(sender.deviceId, 500)).toHaveLength(1);
    expect((await totals()).requests).toBe(0);

    relay.restore();
    await eventually(async () => ledger.pending(sender.deviceId, 500).length === 0, 'the queue sent');
    await reporter.stop();
    expect(await totals()).toEqual({ requests: 2, prompt_tokens: 74, completion_tokens: 14, busy_ms: 500 });

    // A crash after the platform answered but before the host noted it: the next run sends the hour again.
    const text = await readFile(path, 'utf8');
    await writeFile(
      path,
      text
        .split('\n')
        .filter((line) => !line.includes('"sent"'))
        .join('\n'),
    );
    const restarted = await UsageLedger.open(path);
    expect(restarted.pending(sender.deviceId, 500)).toHaveLength(1);
    expect(await new UsageReporter(restarted, () => sender).flush()).toBe('sent');
    expect(await totals()).toEqual({ requests: 2, prompt_tokens: 74, completion_tokens: 14, busy_ms: 500 });

    // The hour grows: the platform holds the new cumulative figures, not a sum of both reports.
    await restarted.record(sender.deviceId, 'smollm2', answer);
    expect(await new UsageReporter(restarted, () => sender).flush()).toBe('sent');
    expect((await totals()).requests).toBe(3);
  });
});

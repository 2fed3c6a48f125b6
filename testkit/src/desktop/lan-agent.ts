/**
 * One host inside a LAN lab machine, driven by the test over stdio (a JSON object a line each
 * way): the host's window routes, its state, its memory, its clock and its signed document.
 * It starts from the MESHWORK_AGENT variable ({ api, name, address, fingerprint, dataDir }), prints
 * `{"ready": ...}`, then `{"entitlements": ...}` each time a new signed document is applied.
 * Run by `lan-host.ts` as `node -r @swc-node/register testkit/src/desktop/lan-agent.ts`.
 */
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { pinSpeed } from '../../../desktop/src/runtime/network/node-report';
import { startHost } from './host-harness';

interface AgentConfig {
  api: string;
  name: string;
  address: string;
  fingerprint: string;
  dataDir: string;
  /** A fixed device speed (see pinSpeed); measured when absent. */
  speed?: number;
}

/** This process's peak resident set (VmHWM), in bytes. */
async function peakRss(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

async function main(): Promise<void> {
  const config = JSON.parse(process.env.MESHWORK_AGENT ?? '{}') as AgentConfig;
  if (config.speed !== undefined) pinSpeed(config.speed);
  let offsetMs = 0;
  const subject = await startHost(config.api, {
    name: config.name,
    fingerprint: config.fingerprint,
    dataDir: config.dataDir,
    address: config.address,
    clock: () => new Date(Date.now() + offsetMs),
  });
  let seq = subject.host.entitlements?.seq ?? null;
  subject.host.on('entitlements', (document) => {
    if (!document || document.seq === seq) return;
    seq = document.seq;
    send({ entitlements: { seq, at: Date.now(), plan: document.plan } });
  });
  send({ ready: { openai: subject.openaiBase, pid: process.pid } });

  for await (const line of createInterface({ input: process.stdin })) {
    const request = JSON.parse(line) as {
      id: number;
      call?: [string, string, unknown?];
      state?: true;
      rss?: true;
      peak?: true;
      advance?: number;
      token?: true;
    };
    try {
      let result: unknown;
      if (request.call) result = await subject.call(...request.call);
      else if (request.state) result = subject.host.state();
      else if (request.rss) result = process.memoryUsage().rss;
      else if (request.peak) result = await peakRss();
      else if (request.token) result = subject.host.entitlementToken;
      else if (request.advance !== undefined) {
        offsetMs = request.advance;
        result = subject.host.state();
      }
      send({ id: request.id, result });
    } catch (error) {
      send({ id: request.id, error: (error as Error).message });
    }
  }
  await subject.close();
  process.exit(0);
}

main().catch((error: Error) => {
  send({ fatal: error.message });
  process.exit(1);
});

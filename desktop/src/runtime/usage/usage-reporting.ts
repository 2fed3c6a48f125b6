import { join } from 'node:path';
import type { DesktopRuntime, HostConfig } from '../host';
import type { AnswerFigures } from '../inference/model-server';
import { UsageLedger } from './usage-ledger';
import { UsageReporter, type UsageReporterOptions } from './usage-reporter';

/**
 * The host's usage reporting: every answer this device serves is counted in `usage.jsonl` in
 * its data folder, for the signed-in device, and sent to the platform by the reporter.
 *
 * In a network the host serves the request, so the host counts it, its tokens and its busy
 * time (the whole pipeline's wall time). Members running blocks report nothing: a request is
 * one unit of the customer's usage, and counting it again on each member would multiply it by
 * the pipeline's length.
 */
export async function usageReporting(host: DesktopRuntime, config: HostConfig & { usage?: UsageReporterOptions }) {
  const log = config.log ?? (() => undefined);
  const ledger = await UsageLedger.open(join(config.dataDir, 'usage.jsonl'), { log, clock: config.clock });
  const reporter = new UsageReporter(ledger, () => host.signedInDevice, { log, ...config.usage });
  let online = false;
  // Back online: send what waited, without waiting for the next turn of the cadence.
  const onState = () => {
    const now = host.state().connection === 'online';
    if (now && !online) void reporter.flush();
    online = now;
  };
  host.on('state', onState);
  reporter.start();
  return {
    ledger,
    reporter,
    /** Counts one answer for the signed-in device (a signed-out host serves nothing). */
    record: (model: string, figures: AnswerFigures) => {
      const device = host.signedInDevice;
      if (!device) return;
      void ledger.record(device.deviceId, model, {
        requests: 1,
        prompt_tokens: figures.promptTokens,
        completion_tokens: figures.completionTokens,
        busy_ms: figures.busyMs,
      });
    },
    async close() {
      host.off('state', onState);
      await reporter.stop();
      await ledger.settle();
    },
  };
}

import { ControlServer } from './control/control-server';
import { DesktopRuntime, type HostConfig } from './host';
import { ApiKeyStore } from './inference/api-keys';
import { ModelServer } from './inference/model-server';
import { OpenAiServer } from './inference/openai-server';
import { LanNetwork } from './network/lan-network';
import { usageReporting } from './usage/usage-reporting';

export interface RuntimeConfig extends HostConfig {
  /** The UI server's loopback port (0: any free one). */
  uiPort: number;
  /** Where the OpenAI-compatible api listens: the LAN by default. */
  apiAddress: string;
  apiPort: number;
  /** The built UI the window shows (desktop/ui/dist unless given). */
  uiDirectory?: string;
  /** onnxruntime threads per block session. */
  threads?: number;
  /** Where the network's TLS port and announcements are (every LAN interface by default), and the port. */
  lanAddress: string;
  lanPort: number;
}

/** The whole headless host: account and entitlements, models, the OpenAI api and the UI server. */
export async function startRuntime(config: RuntimeConfig) {
  const host = await DesktopRuntime.open(config);
  const keys = new ApiKeyStore(config.dataDir);
  const network = await LanNetwork.open(host, {
    dataDir: config.dataDir,
    address: config.lanAddress,
    port: config.lanPort,
    threads: config.threads,
    log: config.log,
  });
  const usage = await usageReporting(host, config);
  const models = new ModelServer(host, { threads: config.threads, onAnswered: usage.record });
  models.useNetwork(network);
  const openai = new OpenAiServer(models, keys);
  await openai.listen(config.apiPort, config.apiAddress);
  const control = new ControlServer(host, keys, openai, network, config.uiDirectory, config.clock);
  await control.listen(config.uiPort);
  return {
    host,
    keys,
    models,
    network,
    openai,
    control,
    usage,
    async close() {
      await control.close();
      await openai.close();
      await models.close();
      await usage.close();
      await network.close();
      await host.close();
    },
  };
}
export type Runtime = Awaited<ReturnType<typeof startRuntime>>;

import { ControlServer } from './control/control-server';
import { Host, type HostConfig } from './host';
import { ApiKeyStore } from './inference/api-keys';
import { ModelServer } from './inference/model-server';
import { OpenAiServer } from './inference/openai-server';

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
}

/** The whole headless host: account and entitlements, models, the OpenAI api and the UI server. */
export async function startRuntime(config: RuntimeConfig) {
  const host = await Host.open(config);
  const keys = new ApiKeyStore(config.dataDir);
  const models = new ModelServer(host, { threads: config.threads });
  const openai = new OpenAiServer(models, keys);
  await openai.listen(config.apiPort, config.apiAddress);
  const control = new ControlServer(host, keys, openai, config.uiDirectory);
  await control.listen(config.uiPort);
  return {
    host,
    keys,
    models,
    openai,
    control,
    async close() {
      await control.close();
      await openai.close();
      await models.close();
      await host.close();
    },
  };
}
export type Runtime = Awaited<ReturnType<typeof startRuntime>>;

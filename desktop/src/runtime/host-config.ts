import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { LAN_NETWORK_PORT } from '@meshwork/contracts';

/**
 * The runtime's settings, parsed once at start-up: command-line flags first, then MESHWORK_*
 * variables. Every bad value is listed before the process exits.
 */
export const HostSettings = z.object({
  dataDir: z.string({ error: '--data-dir (or MESHWORK_DATA_DIR) is required' }).min(1, '--data-dir (or MESHWORK_DATA_DIR) is required'),
  api: z
    .url({ protocol: /^https?$/, error: '--api (or MESHWORK_API) must be the api’s http(s) origin' })
    .transform((url) => url.replace(/\/+$/, '')),
  uiPort: z.coerce.number().int().min(0).max(65_535).default(0),
  deviceName: z
    .string()
    .min(1)
    .max(100)
    .default(hostname().slice(0, 100) || 'Meshwork host'),
  /** Replaces the machine's fingerprint: tests, and several hosts on one machine. */
  fingerprint: z.string().min(1).max(256).optional(),
  /** The OpenAI-compatible api: every interface by default, so the LAN reaches it (keys guard it). */
  apiAddress: z.union([z.ipv4(), z.ipv6()], { error: '--api-address must be an IP address' }).default('0.0.0.0'),
  apiPort: z.coerce.number().int().min(0).max(65_535).default(8431),
  threads: z.coerce.number().int().min(1).max(64).default(1),
  /** The LAN network: the address its TLS port and announcements use (every LAN interface by default), and the port. */
  lanAddress: z.union([z.ipv4(), z.ipv6()], { error: '--lan-address must be an IP address' }).default('0.0.0.0'),
  lanPort: z.coerce.number().int().min(0).max(65_535).default(LAN_NETWORK_PORT),
  /** Open the UI in the default browser (when no Electron shell opens it). */
  open: z.boolean().default(false),
});
export type HostSettings = z.output<typeof HostSettings>;

export function parseHostSettings(argv: string[], env: NodeJS.ProcessEnv): HostSettings {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      api: { type: 'string' },
      'ui-port': { type: 'string' },
      'device-name': { type: 'string' },
      'api-address': { type: 'string' },
      'api-port': { type: 'string' },
      threads: { type: 'string' },
      'lan-address': { type: 'string' },
      'lan-port': { type: 'string' },
      open: { type: 'boolean' },
    },
    strict: true,
  });
  const parsed = HostSettings.safeParse({
    dataDir: values['data-dir'] ?? env.MESHWORK_DATA_DIR,
    api: values.api ?? env.MESHWORK_API,
    uiPort: values['ui-port'] ?? env.MESHWORK_UI_PORT,
    deviceName: values['device-name'] ?? env.MESHWORK_DEVICE_NAME,
    fingerprint: env.MESHWORK_HARDWARE_FINGERPRINT,
    apiAddress: values['api-address'] ?? env.MESHWORK_API_ADDRESS,
    apiPort: values['api-port'] ?? env.MESHWORK_API_PORT,
    threads: values.threads ?? env.MESHWORK_THREADS,
    lanAddress: values['lan-address'] ?? env.MESHWORK_LAN_ADDRESS,
    lanPort: values['lan-port'] ?? env.MESHWORK_LAN_PORT,
    open: values.open,
  });
  if (!parsed.success) throw new Error(`The host cannot start:\n${parsed.error.issues.map((i) => `  - ${i.message}`).join('\n')}`);
  return parsed.data;
}

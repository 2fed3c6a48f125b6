import { homedir, hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { LAN_NETWORK_PORT } from '@meshwork/contracts';
import { defaultDataDirectory } from './platform/data-directory';

/** The window's port on 127.0.0.1: fixed so its address stays the same, beside the api (8431), discovery (8432) and the LAN (8433). */
export const DEFAULT_UI_PORT = 8434;
export const COMMAND = 'meshwork-host';

const NEEDS_API = `Meshwork does not know which site to sign in to: pass --api <your Meshwork site's address> (or set MESHWORK_API).`;
const port = (flag: string) =>
  z.coerce
    .number({ error: `${flag} must be a port number` })
    .int()
    .min(0)
    .max(65_535);

/**
 * The runtime's settings, parsed once at start-up: command-line flags first, then MESHWORK_*
 * variables, then what the release and the platform imply. Every bad value is listed before the
 * process exits.
 */
export const HostSettings = z.object({
  dataDir: z.string().min(1, '--data-dir (or MESHWORK_DATA_DIR) must name a directory'),
  api: z
    .url({
      protocol: /^https?$/,
      error: (issue) => (issue.input === undefined ? NEEDS_API : "--api (or MESHWORK_API) must be the api's http(s) origin"),
    })
    .transform((url) => url.replace(/\/+$/, '')),
  uiPort: port('--ui-port').default(DEFAULT_UI_PORT),
  deviceName: z
    .string()
    .min(1)
    .max(100)
    .default(hostname().slice(0, 100) || 'Meshwork host'),
  /** Replaces the machine's fingerprint: tests, and several hosts on one machine. */
  fingerprint: z.string().min(1).max(256).optional(),
  /** The OpenAI-compatible api: every interface by default, so the LAN reaches it (keys guard it). */
  apiAddress: z.union([z.ipv4(), z.ipv6()], { error: '--api-address must be an IP address' }).default('0.0.0.0'),
  apiPort: port('--api-port').default(8431),
  threads: z.coerce.number({ error: '--threads must be a number' }).int().min(1).max(64).default(1),
  /** The LAN network: the address its TLS port and announcements use (every LAN interface by default), and the port. */
  lanAddress: z.union([z.ipv4(), z.ipv6()], { error: '--lan-address must be an IP address' }).default('0.0.0.0'),
  lanPort: port('--lan-port').default(LAN_NETWORK_PORT),
  /** Open the window in the default browser (the Electron shell opens its own instead). */
  open: z.boolean().default(true),
});
export type HostSettings = z.output<typeof HostSettings>;

/** What the help shows as each default, worked out for this machine and this release. */
export interface Defaults {
  dataDir: string;
  /** The site the release names (release.json); it throws when that file is damaged. */
  releaseOrigin: () => string | null;
}

export function platformDefaults(releaseOrigin: () => string | null, env: NodeJS.ProcessEnv = process.env): Defaults {
  return { dataDir: defaultDataDirectory(process.platform, env, homedir()), releaseOrigin };
}

type Flag = { value?: string; env?: string; shown: (defaults: Defaults) => string; help: string };

/** Every flag, once: the parser and --help are both made from this table. */
const FLAGS: Record<string, Flag> = {
  'data-dir': {
    value: '<dir>',
    env: 'MESHWORK_DATA_DIR',
    shown: (d) => d.dataDir,
    help: 'Where the host keeps its account, plan, models and keys.',
  },
  api: {
    value: '<url>',
    env: 'MESHWORK_API',
    shown: (d) => {
      try {
        return d.releaseOrigin() ?? 'none: this copy was not downloaded from a site, so pass one';
      } catch (error) {
        return `none: ${(error as Error).message}`;
      }
    },
    help: 'The Meshwork site this device signs in to (by default, the one it was downloaded from).',
  },
  'ui-port': {
    value: '<port>',
    env: 'MESHWORK_UI_PORT',
    shown: () => `${DEFAULT_UI_PORT}`,
    help: "The window's port on 127.0.0.1 (0: any free port).",
  },
  open: { shown: () => 'open', help: 'Open the window in the default browser at start (--no-open: only print its address).' },
  'device-name': {
    value: '<name>',
    env: 'MESHWORK_DEVICE_NAME',
    shown: () => "this computer's name",
    help: 'How this device is listed in your account.',
  },
  'api-address': {
    value: '<ip>',
    env: 'MESHWORK_API_ADDRESS',
    shown: () => '0.0.0.0 (every interface)',
    help: 'Where the OpenAI-compatible API listens.',
  },
  'api-port': { value: '<port>', env: 'MESHWORK_API_PORT', shown: () => '8431', help: "The OpenAI-compatible API's port." },
  threads: { value: '<n>', env: 'MESHWORK_THREADS', shown: () => '1', help: 'Threads per model block.' },
  'lan-address': {
    value: '<ip>',
    env: 'MESHWORK_LAN_ADDRESS',
    shown: () => '0.0.0.0 (every interface)',
    help: 'Where the LAN network listens and announces.',
  },
  'lan-port': { value: '<port>', env: 'MESHWORK_LAN_PORT', shown: () => `${LAN_NETWORK_PORT}`, help: "The LAN network's port." },
};

/** `meshwork-host --help`. */
export function usage(defaults: Defaults): string {
  const rows = Object.entries(FLAGS).map(([name, flag]) => {
    const spelled = flag.value ? `--${name} ${flag.value}` : `--${name}, --no-${name}`;
    return `  ${spelled.padEnd(24)}${flag.help}\n  ${''.padEnd(24)}default: ${flag.shown(defaults)}; variable: ${flag.env ?? 'none'}`;
  });
  return [
    `Usage: ${COMMAND} [options]`,
    '',
    'Runs Meshwork on this computer: it signs this device in to your Meshwork site, keeps your plan,',
    'downloads your models, answers the OpenAI-compatible API and opens its window in your browser.',
    "Started again while it runs (with the same data directory), it opens the running one's window.",
    '',
    'Options (a flag wins over its environment variable):',
    ...rows,
    `  ${'--help'.padEnd(24)}This text.`,
    `  ${'--version'.padEnd(24)}The version.`,
    '',
    "Environment only: MESHWORK_HARDWARE_FINGERPRINT replaces this machine's fingerprint (tests, several hosts on one machine).",
  ].join('\n');
}

export type Command = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; settings: HostSettings };

/** The command line and MESHWORK_* variables as one command; an Error listing every problem. */
export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv, defaults: Defaults): Command {
  const values = parseFlags(argv);
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const given = (name: string): string | undefined => {
    const value = values[name] ?? env[FLAGS[name]!.env!];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const parsed = HostSettings.safeParse({
    dataDir: given('data-dir') ?? defaults.dataDir,
    // The release file is read here only when nothing else names the site; main.ts reads its keys in every case.
    api: given('api') ?? defaults.releaseOrigin() ?? undefined,
    uiPort: given('ui-port'),
    deviceName: given('device-name'),
    fingerprint: env.MESHWORK_HARDWARE_FINGERPRINT || undefined,
    apiAddress: given('api-address'),
    apiPort: given('api-port'),
    threads: given('threads'),
    lanAddress: given('lan-address'),
    lanPort: given('lan-port'),
    open: values.open,
  });
  if (!parsed.success) throw new Error(`The host cannot start:\n${parsed.error.issues.map((i) => `  - ${i.message}`).join('\n')}`);
  return { kind: 'run', settings: parsed.data };
}

function parseFlags(argv: string[]): Record<string, string | boolean | undefined> {
  const options = Object.fromEntries(
    Object.entries(FLAGS).map(([name, flag]) => [name, { type: flag.value ? ('string' as const) : ('boolean' as const) }]),
  );
  try {
    return parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } },
      strict: true,
      allowNegative: true,
    }).values;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const named = /'([^']+)'/.exec(message)?.[1];
    const problem =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? `Unknown option ${named ?? ''}.`
        : code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
          ? `Unexpected argument ${named ?? ''}: options start with --.`
          : message;
    throw new Error(`${problem}\nRun ${COMMAND} --help to see the options.`);
  }
}

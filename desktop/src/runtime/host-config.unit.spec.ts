import { DEFAULT_UI_PORT, parseCommandLine, usage, type Defaults } from './host-config';
import { defaultDataDirectory } from './platform/data-directory';
import { parseRelease } from './platform/release-file';

const defaults = (origin: string | null = null): Defaults => ({ dataDir: '/home/ana/.local/share/meshwork', releaseOrigin: () => origin });
const run = (argv: string[], env: NodeJS.ProcessEnv = {}, given = defaults()) => {
  const command = parseCommandLine(argv, env, given);
  if (command.kind !== 'run') throw new Error(`expected a run, got ${command.kind}`);
  return command.settings;
};

describe('the host’s defaults (issue 30, section 2)', () => {
  it('keeps its data where each platform keeps an application’s own data', () => {
    expect(defaultDataDirectory('win32', { LOCALAPPDATA: 'C:\\Users\\Ana\\AppData\\Local' }, 'C:\\Users\\Ana')).toBe(
      'C:\\Users\\Ana\\AppData\\Local\\Meshwork',
    );
    expect(defaultDataDirectory('win32', {}, 'C:\\Users\\Ana')).toBe('C:\\Users\\Ana\\AppData\\Local\\Meshwork');
    expect(defaultDataDirectory('darwin', {}, '/Users/ana')).toBe('/Users/ana/Library/Application Support/Meshwork');
    expect(defaultDataDirectory('linux', {}, '/home/ana')).toBe('/home/ana/.local/share/meshwork');
    expect(defaultDataDirectory('linux', { XDG_DATA_HOME: '/data/ana' }, '/home/ana')).toBe('/data/ana/meshwork');
    // The XDG specification ignores a relative path.
    expect(defaultDataDirectory('linux', { XDG_DATA_HOME: 'data' }, '/home/ana')).toBe('/home/ana/.local/share/meshwork');
  });

  it('needs no flag: the platform’s data directory, the release’s site, a fixed window port, the browser opened', () => {
    expect(run([], {}, defaults('https://meshwork.example'))).toMatchObject({
      dataDir: '/home/ana/.local/share/meshwork',
      api: 'https://meshwork.example',
      uiPort: DEFAULT_UI_PORT,
      open: true,
    });
    expect(DEFAULT_UI_PORT).toBe(8434);
  });

  it('takes --api over MESHWORK_API over the release, and reads the release only when it needs it', () => {
    const damaged = {
      dataDir: '/d',
      releaseOrigin: () => {
        throw new Error('release.json is damaged');
      },
    };
    expect(run(['--api', 'https://flag.example/'], { MESHWORK_API: 'https://env.example' }, damaged).api).toBe('https://flag.example');
    expect(run([], { MESHWORK_API: 'https://env.example' }, damaged).api).toBe('https://env.example');
    expect(() => run([], {}, damaged)).toThrow('release.json is damaged');
    expect(() => run([], {}, defaults(null))).toThrow(
      "Meshwork does not know which site to sign in to: pass --api <your Meshwork site's address> (or set MESHWORK_API).",
    );
  });

  it('lets flags and variables override every default, --no-open included', () => {
    expect(run(['--data-dir', '/srv/mw', '--ui-port', '0', '--no-open'], { MESHWORK_API: 'http://127.0.0.1:8000' })).toMatchObject({
      dataDir: '/srv/mw',
      uiPort: 0,
      open: false,
    });
    expect(run(['--open'], { MESHWORK_DATA_DIR: '/srv/env', MESHWORK_API: 'http://a.example', MESHWORK_UI_PORT: '9000' })).toMatchObject({
      dataDir: '/srv/env',
      uiPort: 9000,
      open: true,
    });
  });

  it('points an unknown flag, a stray argument or a bad value to --help, listing every problem', () => {
    expect(() => parseCommandLine(['--colour'], {}, defaults())).toThrow(
      'Unknown option --colour.\nRun meshwork-host --help to see the options.',
    );
    expect(() => parseCommandLine(['start'], {}, defaults())).toThrow(/^Unexpected argument start: .*\nRun meshwork-host --help/);
    expect(() => parseCommandLine(['--api'], {}, defaults())).toThrow(/Run meshwork-host --help/);
    expect(() => run(['--api', 'ftp://x.example', '--ui-port', 'high'])).toThrow(
      "The host cannot start:\n  - --api (or MESHWORK_API) must be the api's http(s) origin\n  - --ui-port must be a port number",
    );
  });

  it('answers --help with every flag, its default and its variable, and --version', () => {
    expect(parseCommandLine(['--no-open', '--help'], {}, defaults())).toEqual({ kind: 'help' });
    expect(parseCommandLine(['--version'], {}, defaults())).toEqual({ kind: 'version' });
    const text = usage(defaults('https://meshwork.example'));
    for (const flag of ['data-dir', 'api', 'ui-port', 'device-name', 'api-address', 'api-port', 'threads', 'lan-address', 'lan-port'])
      expect(text).toMatch(new RegExp(`--${flag} <[a-z]+>.*\\n.*default: .+; variable: MESHWORK_${flag.toUpperCase().replace('-', '_')}`));
    expect(text).toContain('default: /home/ana/.local/share/meshwork; variable: MESHWORK_DATA_DIR');
    expect(text).toContain('default: https://meshwork.example; variable: MESHWORK_API');
    expect(text).toContain('default: 8434; variable: MESHWORK_UI_PORT');
    expect(text).toMatch(/--open, --no-open .*\n.*default: open; variable: none/);
  });
});

describe('the release file, read as hostile input', () => {
  const path = '/app/release.json';
  it('gives the site, the version and the platform of a good one', () => {
    expect(parseRelease('{"origin":"https://meshwork.example/","version":"0.1.0","platform":"linux"}', path)).toEqual({
      origin: 'https://meshwork.example',
      version: '0.1.0',
      platform: 'linux',
      keys: null,
    });
    expect(parseRelease('{"origin":null,"version":"1.2.3-beta.1","platform":"windows"}', path).origin).toBeNull();
  });

  it('gives the platform keys it carries, the root of the host’s trust', () => {
    const keys = { keys: [{ kty: 'OKP', crv: 'Ed25519', kid: 'k-2026', x: 'A'.repeat(43), use: 'sig', alg: 'EdDSA' }] };
    const text = JSON.stringify({ origin: 'https://meshwork.example', version: '0.1.0', platform: 'linux', keys });
    expect(parseRelease(text, path).keys).toEqual(keys);
  });

  it.each([
    ['not JSON', '{origin:', 'not JSON'],
    ['a path in the origin', '{"origin":"https://meshwork.example/evil","version":"0.1.0","platform":"linux"}', 'origin: origin must be'],
    ['credentials', '{"origin":"https://u:p@meshwork.example","version":"0.1.0","platform":"linux"}', 'origin: origin must be'],
    ['another scheme', '{"origin":"javascript:alert(1)","version":"0.1.0","platform":"linux"}', 'origin: origin must be'],
    ['a number for the origin', '{"origin":7,"version":"0.1.0","platform":"linux"}', 'origin:'],
    ['an unknown platform', '{"origin":null,"version":"0.1.0","platform":"amiga"}', 'platform:'],
    ['no version', '{"origin":null,"platform":"linux"}', 'version:'],
    ['an array', '[]', 'the file:'],
    ['an empty key set', '{"origin":null,"version":"0.1.0","platform":"linux","keys":{"keys":[]}}', 'keys.keys:'],
    ['a key of another kind', '{"origin":null,"version":"0.1.0","platform":"linux","keys":{"keys":[{"kty":"RSA"}]}}', 'keys.keys.0'],
    ['a huge file', `{"origin":null,"version":"0.1.0","platform":"linux","x":"${'a'.repeat(20_000)}"}`, 'larger than 16384 bytes'],
  ])('refuses %s with words that say what to do', (_, text, why) => {
    expect(() => parseRelease(text, path)).toThrow(why);
    expect(() => parseRelease(text, path)).toThrow(/^\/app\/release.json is damaged \(.*\): install Meshwork again from your site\.$/);
  });
});

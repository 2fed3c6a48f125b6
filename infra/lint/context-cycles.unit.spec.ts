import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The context-cycle check of `npm run lint`, run on small source trees written for each case:
// it is only worth having if it fails on a circle ESLint's no-cycle lets through.
const script = path.join(__dirname, 'context-cycles.mjs');

/** Writes `files` (paths relative to a fresh source folder) and runs the check on that folder. */
function check(files: Record<string, string>): { exitCode: number | null; output: string } {
  const sourceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'context-cycles-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(sourceDir, file)), { recursive: true });
      fs.writeFileSync(path.join(sourceDir, file), text);
    }
    const run = spawnSync(process.execPath, [script, sourceDir], { cwd: sourceDir, encoding: 'utf8' });
    return { exitCode: run.status, output: run.stdout + run.stderr };
  } finally {
    fs.rmSync(sourceDir, { recursive: true, force: true });
  }
}

const layered = {
  'platform/clock.ts': 'export const now = (): Date => new Date();\n',
  'identity/index.ts': "import { now } from '../platform/clock';\nexport const signedInAt = now;\n",
  'identity/events.ts': "export type UserEvent = { type: 'UserDeleted' };\nexport const USER_EVENT_TYPES = ['UserDeleted'] as const;\n",
  'billing/index.ts':
    "import { signedInAt } from '../identity';\nimport type { UserEvent } from '../identity/events';\nexport type Payer = UserEvent;\nexport const since = signedInAt;\n",
  'app.module.ts': "import { since } from './billing';\nexport const app = since;\n",
};

describe('the context-cycle check', () => {
  it('passes a tree whose contexts depend one way, and says so', () => {
    const { exitCode, output } = check(layered);
    expect(output).toMatch(/^context-cycles: OK, 5 files/);
    expect(exitCode).toBe(0);
  });

  it('fails on a circle closed only by an `import type`, naming each edge by file and line', () => {
    const { exitCode, output } = check({
      ...layered,
      'identity/users.ts':
        "import { now } from '../platform/clock';\n\nimport type { Payer } from '../billing';\nexport type P = Payer;\nexport const t = now;\n",
    });
    expect(exitCode).toBe(1);
    expect(output).toContain('import cycle billing → identity → billing');
    expect(output).toMatch(/billing → identity: billing\/index\.ts:1, billing\/index\.ts:2/);
    expect(output).toContain('identity → billing: identity/users.ts:3');
  });

  it('counts `export ... from` and dynamic `import()` as dependencies', () => {
    const { exitCode, output } = check({
      'catalog/index.ts': "export { plan } from '../networks/plan';\n",
      'networks/plan.ts': "export const plan = async () => (await import('../catalog/models')).models;\n",
      'catalog/models.ts': 'export const models = [];\n',
    });
    expect(exitCode).toBe(1);
    expect(output).toContain('import cycle catalog → networks → catalog');
  });

  it('fails when the platform imports a context, even without a circle', () => {
    const { exitCode, output } = check({
      'platform/module.ts': "import type { UserEvent } from '../identity/events';\nexport type E = UserEvent;\n",
      'identity/events.ts': "export type UserEvent = { type: 'UserDeleted' };\n",
    });
    expect(exitCode).toBe(1);
    expect(output).toContain('the platform imports the identity context');
  });

  it('leaves out tests, test kits and entry points, which arrange or compose across contexts', () => {
    const { exitCode } = check({
      ...layered,
      'identity/users.int.spec.ts': "import { since } from '../billing';\nexport const s = since;\n",
      'identity/testing/world.ts': "import { since } from '../../billing';\nexport const s = since;\n",
      'identity/create-staff.main.ts': "import { app } from '../app.module';\nexport const a = app;\n",
    });
    expect(exitCode).toBe(0);
  });
});

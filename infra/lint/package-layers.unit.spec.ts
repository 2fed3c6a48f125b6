import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The package-layer check of `npm run lint`, run on small repositories written for each case.
const script = path.join(__dirname, 'package-layers.mjs');
const FOLDERS = ['contracts', 'api', 'projections', 'web', 'admin', 'desktop', 'testkit', 'infra'];

/** Writes the workspaces and `files` (paths from the repository root) and runs the check on them. */
function check(files: Record<string, string>): { exitCode: number | null; output: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'package-layers-'));
  try {
    const manifests = Object.fromEntries(
      FOLDERS.map((folder) => [`${folder}/package.json`, JSON.stringify({ name: `@meshwork/${folder}` })]),
    );
    const tree = { 'package.json': JSON.stringify({ workspaces: FOLDERS }), ...manifests, ...files };
    for (const [file, text] of Object.entries(tree)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    const run = spawnSync(process.execPath, [script, root], { cwd: root, encoding: 'utf8' });
    return { exitCode: run.status, output: run.stdout + run.stderr };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const layered = {
  'contracts/src/index.ts': 'export const VERSION = 1;\n',
  'api/src/main.ts': "import { VERSION } from '@meshwork/contracts';\nexport const api = VERSION;\n",
  'api/src/main.int.spec.ts':
    "import { startTestApp } from '@meshwork/testkit/api/test-app';\nimport { api } from './main';\nvoid [startTestApp, api];\n",
  'projections/src/main.ts': "import { api } from '../../api/src/main';\nexport const worker = api;\n",
  'testkit/src/api/test-app.ts': "import { api } from '../../../api/src/main';\nexport const startTestApp = () => api;\n",
  'desktop/src/host.spec.ts': "import { startTestApp } from '@meshwork/testkit/api/test-app';\nvoid startTestApp;\n",
  'admin/e2e/users.e2e.spec.ts': "import { api } from '../../api/src/main';\nvoid api;\n",
  'infra/bench/run.mjs':
    "import { startTestApp } from '@meshwork/testkit/api/test-app';\nimport { kit } from '../../api/src/testing/kit';\nvoid [startTestApp, kit];\n",
  'api/src/testing/kit.ts': 'export const kit = 1;\n',
  'api/dist/leftover.js': "require('../../infra/lib/anything');\n",
};

describe('the package-layer check', () => {
  it('passes a repository whose packages import only downward, test code also the testkit, and says so', () => {
    const { exitCode, output } = check(layered);
    expect(output).toMatch(/^package-layers: OK, 9 files in 8 packages/);
    expect(exitCode).toBe(0);
  });

  it('fails on production code importing a package above it or beside it, naming file and line', () => {
    const { exitCode, output } = check({
      ...layered,
      'api/src/health.ts':
        "import { VERSION } from '@meshwork/contracts';\n\nimport { startTestApp } from '@meshwork/testkit/api/test-app';\nexport const h = [VERSION, startTestApp];\n",
      'contracts/src/api.ts': "export type { api } from '../../api/src/main';\n",
      'web/src/page.tsx': "export const load = () => import('../../desktop/src/host');\n",
      'api/src/start.cjs': "module.exports = require('../../infra/lib/api-process.cjs');\n",
    });
    expect(exitCode).toBe(1);
    expect(output).toContain(
      "api/src/health.ts:3 imports testkit ('@meshwork/testkit/api/test-app'): api's production code may import only contracts",
    );
    expect(output).toContain(
      "contracts/src/api.ts:1 imports api ('../../api/src/main'): contracts's production code may import no other package",
    );
    expect(output).toContain('web/src/page.tsx:1 imports desktop');
    expect(output).toContain('api/src/start.cjs:1 imports infra');
  });

  it("fails on test code importing infra, or another package's kit instead of the testkit's", () => {
    const { exitCode, output } = check({
      ...layered,
      'desktop/src/lan.int.spec.ts': "import { kit } from '../../api/src/testing/kit';\nvoid kit;\n",
      'testkit/src/browser.ts': "import { kit } from '../../api/src/testing/kit';\nexport const b = kit;\n",
      'api/src/upload.e2e.spec.ts': "import { startApiProcess } from '../../infra/lib/api-process.cjs';\nvoid startApiProcess;\n",
    });
    expect(exitCode).toBe(1);
    expect(output).toContain('desktop/src/lan.int.spec.ts:1 imports api');
    expect(output).toContain("api/src/testing/kit is api's test code: a kit packages share belongs in testkit/");
    expect(output).toContain('testkit/src/browser.ts:1 imports api');
    expect(output).toContain('api/src/upload.e2e.spec.ts:1 imports infra');
    expect(output.trim().split('\n')).toHaveLength(4);
  });

  it('fails on a workspace with no layer', () => {
    const { exitCode, output } = check({ ...layered, 'package.json': JSON.stringify({ workspaces: [...FOLDERS, 'docs'] }) });
    expect(exitCode).toBe(1);
    expect(output).toContain('no layer for docs');
  });
});

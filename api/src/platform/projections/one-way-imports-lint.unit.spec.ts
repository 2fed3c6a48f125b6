import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../../../..');
const eslintBin = join(root, 'node_modules/eslint/bin/eslint.js');

/** Problems the repository's ESLint configuration reports for `no-restricted-imports`, as `npm run lint` runs it. */
function restrictedImports(args: string[], stdin?: string): string[] {
  const run = spawnSync(process.execPath, [eslintBin, '--format', 'json', ...args], { cwd: root, input: stdin, encoding: 'utf8' });
  const files = JSON.parse(run.stdout) as { filePath: string; messages: { ruleId: string | null; line: number; message: string }[] }[];
  return files.flatMap((file) =>
    file.messages
      .filter((m) => m.ruleId === 'no-restricted-imports')
      .map((m) => `${file.filePath.slice(root.length + 1)}:${m.line}: ${m.message}`),
  );
}

describe('the api never imports projections/ (the lint rule)', () => {
  const fixture = [
    "import { ProjectionsHost } from '../../../../projections/src/projections-host';",
    "import type { Projection } from '../../platform/projections/projection';",
    "import { BILLING_PROJECTION } from '../projections/billing.projection';",
    "export { main } from '../../../../projections/src/main';",
    "import { relay } from '@meshwork/projections/src/relay';",
    'export type { Projection };',
    'export const uses = [ProjectionsHost, BILLING_PROJECTION, relay];',
  ].join('\n');

  it.each(['api/src/billing/application/fixture.ts', 'api/src/billing/application/fixture.int.spec.ts'])(
    'refuses imports of projections/ in %s, and lets the platform runtime and a context’s own projections through',
    (file) => {
      expect(restrictedImports(['--stdin', '--stdin-filename', file], fixture)).toEqual([
        expect.stringMatching(new RegExp(`^${file.replaceAll('.', '\\.')}:1: .*The api never imports projections/`)),
        expect.stringMatching(/:4: .*The api never imports projections\//),
        expect.stringMatching(/:5: .*The api never imports projections\//),
      ]);
    },
  );

  it('finds no such import anywhere under api/', () => {
    expect(restrictedImports(['--no-warn-ignored', 'api'])).toEqual([]);
  });
});

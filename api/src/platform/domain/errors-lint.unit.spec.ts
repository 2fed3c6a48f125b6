import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../../..');
const eslintBin = join(root, 'node_modules/eslint/bin/eslint.js');

/** Runs the repository's ESLint configuration, as `npm run lint` does. */
function eslint(args: string[], stdin?: string) {
  const run = spawnSync(process.execPath, [eslintBin, '--format', 'json', ...args], { cwd: root, input: stdin, encoding: 'utf8' });
  const files = JSON.parse(run.stdout) as { filePath: string; messages: { ruleId: string | null; message: string }[] }[];
  return files.flatMap((file) => file.messages.map((m) => `${file.filePath.slice(root.length + 1)}: ${m.ruleId}: ${m.message}`));
}

describe('errors carry a kind, never an HTTP status (the lint rule)', () => {
  it('refuses a status passed to an error constructor, and a hand-built DomainError, in a decider', () => {
    const decider = [
      "import { DomainError } from '../../platform/domain/errors';",
      'class PlanError extends Error {}',
      "export const gone = () => new PlanError(404, 'gone');",
      "export const lost = () => new DomainError('not_found');",
    ].join('\n');
    const problems = eslint(['--stdin', '--stdin-filename', 'api/src/billing/domain/fixture.decider.ts'], decider);
    expect(problems).toEqual([
      expect.stringMatching(/^api\/src\/billing\/domain\/fixture\.decider\.ts: no-restricted-syntax: No HTTP status in an error/),
      expect.stringMatching(/no-restricted-syntax: Throw domain errors through their helpers/),
    ]);
  });

  it('finds no such error in any domain folder', () => {
    const apiSrc = join(root, 'api/src');
    const domains = readdirSync(apiSrc, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join('api/src', entry.name, 'domain'))
      .filter((dir) => readdirSync(join(root, dir.replace(/\/domain$/, ''))).includes('domain'));
    expect(domains).toEqual(expect.arrayContaining(['api/src/billing/domain', 'api/src/platform/domain']));
    expect(eslint(['--no-warn-ignored', ...domains])).toEqual([]);
  });
});

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The repository's own ESLint, as `npm run lint` runs it, on code that breaks each import rule:
// the rules are only worth having if the lint fails on these.
const root = path.resolve(__dirname, '../..');

function ruleIdsOf(code: string, filePath: string): string[] {
  const eslint = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', '--stdin', '--stdin-filename', filePath],
    { cwd: root, input: code, encoding: 'utf8' },
  );
  const [result] = JSON.parse(eslint.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('import rules of the lint', () => {
  // no-cycle reads the imported files, so the cycle is written to disk, in a folder tsc and Jest skip.
  const cycleDir = path.join(root, `api/src/platform/.lint-fixture-${process.pid}`);
  beforeAll(() => {
    fs.mkdirSync(cycleDir, { recursive: true });
    fs.writeFileSync(path.join(cycleDir, 'a.ts'), "import { b } from './b';\nexport const a = (): number => b() + 1;\n");
    fs.writeFileSync(path.join(cycleDir, 'b.ts'), "import { a } from './a';\nexport const b = (): number => a() - 1;\n");
  });
  afterAll(() => fs.rmSync(cycleDir, { recursive: true, force: true }));

  it('refuses an import cycle', () => {
    const code = fs.readFileSync(path.join(cycleDir, 'a.ts'), 'utf8');
    expect(ruleIdsOf(code, path.relative(root, path.join(cycleDir, 'a.ts')))).toContain('import-x/no-cycle');
  });

  it("refuses a context importing another context's inside, and accepts its index", () => {
    const deep = "import { UserDirectory } from '../../identity/application/user-directory';\nexport const d = UserDirectory;\n";
    expect(ruleIdsOf(deep, 'api/src/billing/application/lint-fixture.ts')).toContain('import-x/no-restricted-paths');
    const viaIndex = "import * as identity from '../../identity';\nexport const i = identity;\n";
    expect(ruleIdsOf(viaIndex, 'api/src/billing/application/lint-fixture.ts')).not.toContain('import-x/no-restricted-paths');
  });

  it('refuses the platform importing a context', () => {
    const code = "import * as billing from '../../billing';\nexport const b = billing;\n";
    expect(ruleIdsOf(code, 'api/src/platform/http/lint-fixture.ts')).toContain('import-x/no-restricted-paths');
  });

  it("refuses a path into the contracts' source", () => {
    const code = "import { User } from '../../../../contracts/src/identity/account.contract';\nexport type U = User;\n";
    expect(ruleIdsOf(code, 'api/src/identity/http/lint-fixture.ts')).toContain('no-restricted-imports');
  });
});

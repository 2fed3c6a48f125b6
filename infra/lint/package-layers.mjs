// Fails on any import that reaches up the packages' layers.
//
// The layers, bottom up (BELOW names what each package may import besides itself):
//   contracts                     the shared vocabulary: imports no package
//   api, desktop, web, admin      the products: the contracts only, never each other
//   projections                   the api's processes: the api and the contracts
//   testkit                       the kits tests share: every package above, not infra
//   infra                         tooling (servers, scripts, benchmarks, lint): anything
// Test code (a *.spec.* or *.test.* file, or any file under a testing/ or e2e/ folder) sits at the
// testkit's layer whatever its package: it may import the testkit and what the testkit may, but
// never another package's test code: a kit two packages share lives in testkit/.
//
// Every import the TypeScript compiler sees counts (`import`, `import type`, `export ... from`,
// `import()`, `require()`), relative ones mapped to the package folder they land in and
// `@meshwork/*` ones to the package of that name. Packages are the root package.json's workspaces.
//
// Usage: node infra/lint/package-layers.mjs [repositoryRoot]   (default: this repository)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const PRODUCTS = ['contracts'];
const BELOW_TESTKIT = ['contracts', 'api', 'projections', 'desktop', 'web', 'admin'];
const BELOW = {
  contracts: [],
  api: PRODUCTS,
  desktop: PRODUCTS,
  web: PRODUCTS,
  admin: PRODUCTS,
  projections: ['contracts', 'api'],
  testkit: BELOW_TESTKIT,
  infra: [...BELOW_TESTKIT, 'testkit'],
};
const TESTKIT = 'testkit';
/** Tooling: may import any file of any package, test code included. */
const TOOLING = 'infra';

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'dist-server', 'coverage']);

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../..'));
const relative = (file) => path.relative(root, file).split(path.sep).join('/');

/** folder -> package, and the packages' names (`@meshwork/api`) -> folder. */
function packages() {
  const folders = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces;
  const unplaced = folders.filter((folder) => !(folder in BELOW));
  if (unplaced.length > 0) {
    console.error(`package-layers: no layer for ${unplaced.join(', ')}: place each in infra/lint/package-layers.mjs`);
    process.exit(1);
  }
  const byName = new Map();
  for (const folder of folders) {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, folder, 'package.json'), 'utf8'));
    byName.set(manifest.name, folder);
  }
  return { folders, byName };
}

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

/** A test, or a kit only tests load. */
const isTestCode = (repositoryPath) =>
  /\.(spec|test)\.[^/]+$/.test(repositoryPath) || repositoryPath.split('/').some((part) => part === 'testing' || part === 'e2e');

/** The package (folder) and repository path an import lands in, or null outside every package. */
function target(file, specifier, { folders, byName }) {
  if (specifier.startsWith('.')) {
    const landed = relative(path.resolve(path.dirname(file), specifier));
    const folder = landed.split('/')[0];
    return folders.includes(folder) ? { folder, landed } : null;
  }
  const name = specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
  const folder = byName.get(name);
  return folder ? { folder, landed: null } : null;
}

/** Why `from` (a file of package `source`) may not import `to`, or null when it may. */
function refusal(source, fromPath, to) {
  if (to.folder === source || source === TOOLING) return null;
  const testCode = isTestCode(fromPath);
  const allowed = testCode ? [...new Set([...BELOW[source], ...BELOW[TESTKIT], TESTKIT])] : BELOW[source];
  if (!allowed.includes(to.folder)) {
    const who = testCode ? `${source}'s test code` : `${source}'s production code`;
    return `${who} may import ${allowed.length > 0 ? `only ${allowed.join(', ')}` : 'no other package'}`;
  }
  if (to.landed && to.folder !== TESTKIT && isTestCode(to.landed)) {
    return `${to.landed} is ${to.folder}'s test code: a kit packages share belongs in testkit/`;
  }
  return null;
}

const layout = packages();
const problems = [];
let fileCount = 0;
for (const folder of layout.folders) {
  for (const file of sourceFiles(path.join(root, folder))) {
    fileCount++;
    const text = fs.readFileSync(file, 'utf8');
    const fromPath = relative(file);
    let source;
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      const to = target(file, imported.fileName, layout);
      const why = to && refusal(folder, fromPath, to);
      if (!why) continue;
      source ??= ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
      const line = source.getLineAndCharacterOfPosition(imported.pos).line + 1;
      problems.push(`  ${fromPath}:${line} imports ${to.folder} ('${imported.fileName}'): ${why}`);
    }
  }
}
if (problems.length > 0) {
  console.error(`package-layers: a package imports only the packages below it (infra/lint/package-layers.mjs):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`package-layers: OK, ${fileCount} files in ${layout.folders.length} packages, no import reaches up a layer`);

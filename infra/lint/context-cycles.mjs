// Fails on any import circle between the api's contexts, type-only imports included.
//
// ESLint's import-x/no-cycle skips `import type`, so a circle closed only by type imports stayed
// green. This check reads every import the TypeScript compiler sees (`import`, `import type`,
// `export ... from`, `import()`, `import x = require()`), maps each file to its module (the folder
// under api/src: a context or the platform; a file directly in api/src, or a process's entry
// point `*.main.ts`, is a module of its own, since it composes the others), and fails on any
// circle in that graph. The platform is the layer below the contexts: it imports none.
//
// Usage: node infra/lint/context-cycles.mjs [sourceDir]   (default: api/src)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const PLATFORM = 'platform';
const SHOWN_SITES = 3;

const sourceDir = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../../api/src'));

/** Every .ts file under dir, without tests and their kits: tests arrange the world across contexts. */
function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

/**
 * The module a path under sourceDir belongs to: its first folder, or the file itself at the
 * top. A process's entry point (`*.main.ts`) composes the contexts wherever it sits, like
 * main.ts at the top, so it is a module of its own too.
 */
function moduleOf(relative) {
  if (/\.main(\.ts)?$/.test(relative)) return `${relative.replace(/\.ts$/, '')}.ts`.split(path.sep).join('/');
  const [first, ...rest] = relative.split(path.sep);
  const inFolder = rest.length > 0 || fs.statSync(path.join(sourceDir, first), { throwIfNoEntry: false })?.isDirectory();
  return inFolder ? first : `${first.replace(/\.(ts|js)$/, '')}.ts`;
}

const isContext = (module) => module !== PLATFORM && !module.endsWith('.ts');

/** edges.get(from).get(to) = the import sites ("file:line") that make from depend on to. */
function importGraph(files) {
  const edges = new Map();
  for (const file of files) {
    const from = moduleOf(path.relative(sourceDir, file));
    const text = fs.readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue; // packages: outside the graph
      const target = path.relative(sourceDir, path.resolve(path.dirname(file), imported.fileName));
      if (target === '' || target.startsWith('..')) continue; // outside the api's source
      const to = moduleOf(target);
      if (to === from) continue;
      const line = source.getLineAndCharacterOfPosition(imported.pos).line + 1;
      if (!edges.has(from)) edges.set(from, new Map());
      const sites = edges.get(from).get(to) ?? [];
      sites.push(`${path.relative(process.cwd(), file)}:${line}`);
      edges.get(from).set(to, sites);
    }
  }
  return edges;
}

const next = (edges, node) => [...(edges.get(node)?.keys() ?? [])].sort();

/** Tarjan's strongly connected components: every module in one component reaches every other. */
function components(edges, nodes) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const found = [];
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node));
    stack.push(node);
    for (const to of next(edges, node)) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        component.push(member);
      } while (member !== node);
      found.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

/** The shortest path from start to goal inside a component (breadth first), as a list of modules. */
function shortestPath(edges, start, goal, component) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    if (node === goal) {
      const route = [node];
      while (cameFrom.get(route[0]) !== null) route.unshift(cameFrom.get(route[0]));
      return route;
    }
    for (const to of next(edges, node).filter((m) => component.has(m) && !cameFrom.has(m))) {
      cameFrom.set(to, node);
      queue.push(to);
    }
  }
  return [];
}

/**
 * The circles to cut: for every dependency inside a circle, the shortest circle it closes, each
 * listed once. So every dependency that takes part in a circle is named, not only one circle.
 */
function cycles(edges) {
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((to) => [...to.keys()])])].sort();
  const seen = new Map();
  for (const component of components(edges, nodes).filter((c) => c.length > 1)) {
    const members = new Set(component);
    for (const from of [...component].sort()) {
      for (const to of next(edges, from).filter((m) => members.has(m))) {
        const cycle = [from, ...shortestPath(edges, to, from, members).slice(0, -1)];
        const first = cycle.indexOf([...cycle].sort()[0]);
        const canonical = [...cycle.slice(first), ...cycle.slice(0, first)];
        seen.set(canonical.join(' → '), canonical);
      }
    }
  }
  return [...seen.values()];
}

function describeEdge(edges, from, to) {
  const sites = edges.get(from).get(to);
  const more = sites.length > SHOWN_SITES ? ` (and ${sites.length - SHOWN_SITES} more)` : '';
  return `    ${from} → ${to}: ${sites.slice(0, SHOWN_SITES).join(', ')}${more}`;
}

const files = sourceFiles(sourceDir);
if (files.length === 0) {
  console.error(`context-cycles: no .ts file under ${sourceDir}`);
  process.exit(1);
}
const edges = importGraph(files);
const problems = [];
for (const to of next(edges, PLATFORM).filter(isContext)) {
  problems.push(`  the platform imports the ${to} context (the platform serves the contexts, it imports none):`);
  problems.push(describeEdge(edges, PLATFORM, to));
}
for (const cycle of cycles(edges)) {
  problems.push(`  import cycle ${[...cycle, cycle[0]].join(' → ')}:`);
  cycle.forEach((from, i) => problems.push(describeEdge(edges, from, cycle[(i + 1) % cycle.length])));
}
if (problems.length > 0) {
  console.error(`context-cycles: the api's modules must depend one way (type-only imports count too):\n${problems.join('\n')}`);
  process.exit(1);
}
const edgeCount = [...edges.values()].reduce((sum, to) => sum + to.size, 0);
console.log(
  `context-cycles: OK, ${files.length} files, ${edgeCount} dependencies between modules, no cycle, the platform imports no context`,
);

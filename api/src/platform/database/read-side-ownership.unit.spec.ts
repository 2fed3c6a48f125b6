import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Each context owns its read side (issue 11): a read model's tables, described by the
 * `@Entity` classes and entity lists of its context's `*.entities.ts`, are read by that
 * context alone. Another context asks through a query API (`UserDirectory.namesOf`) or keeps
 * its own copy from events (billing's payers); it never imports the entities, so no query
 * joins or reads another context's tables through them. Tests and test kits are free to.
 */

const API_SRC = path.resolve(__dirname, '../..');

interface Source {
  /** Relative to api/src, with forward slashes: `billing/application/x.ts`. */
  file: string;
  text: string;
}

/**
 * Cross-context uses that predate this test, each with the reason it stays for now. A new
 * one fails the test; fixing one fails it too, until it is taken off this list.
 */
const KNOWN: Record<string, string> = {
  // The console's users list is the admin context's, over identity's users read model:
  // moving it into identity (or a query API there) is left for later.
  'admin/users/admin-users.query.ts: USERS_ENTITIES (identity)': 'console users list',
  'admin/users/admin-users.query.ts: UserRecord (identity)': 'console users list',
};

function sources(dir: string): Source[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    if (!entry.name.endsWith('.ts')) return [];
    return [{ file: path.relative(API_SRC, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') }];
  });
}

/** The context a file under api/src belongs to (its first folder), or null for root files. */
const contextOf = (file: string): string | null => (file.includes('/') ? file.slice(0, file.indexOf('/')) : null);

const isTestCode = (file: string) => file.endsWith('.spec.ts') || file.split('/').includes('testing');

/** Each context's entity names: `@Entity` classes and `ReadModelEntities` lists in its `*.entities.ts` files. */
function entitiesByContext(files: Source[]): Map<string, Set<string>> {
  const byContext = new Map<string, Set<string>>();
  for (const { file, text } of files.filter(({ file }) => file.endsWith('.entities.ts'))) {
    const context = contextOf(file);
    if (!context) continue;
    const names = byContext.get(context) ?? new Set<string>();
    // Other decorators (@Index, @Check) may sit between @Entity and the class.
    for (const match of text.matchAll(/@Entity\([\s\S]*?export class (\w+)/g)) names.add(match[1]!);
    for (const match of text.matchAll(/export const (\w+)\s*:\s*ReadModelEntities\b/g)) names.add(match[1]!);
    byContext.set(context, names);
  }
  return byContext;
}

/** `file: Name (context)` for each entity of another context that non-test code imports (by name, alias or namespace). */
function crossContextEntityUses(files: Source[], entities: Map<string, Set<string>>): string[] {
  const uses: string[] = [];
  for (const { file, text } of files) {
    const context = contextOf(file);
    if (!context || isTestCode(file)) continue;
    for (const match of text.matchAll(/import\s+(?:type\s+)?(\{[^}]*\}|\*\s+as\s+\w+)\s+from\s+'([^']+)'/g)) {
      const [, clause, specifier] = match as unknown as [string, string, string];
      if (!specifier.startsWith('.')) continue;
      // `../../identity` (the index) and `../../identity/projections/...` alike: the first folder.
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).split('/')[0]!;
      const owned = target !== context ? entities.get(target) : undefined;
      if (!owned) continue;
      const names = clause.startsWith('{')
        ? clause
            .slice(1, -1)
            .split(',')
            .map((name) =>
              name
                .replace(/^\s*type\s+/, '')
                .split(/\s+as\s+/)[0]!
                .trim(),
            )
        : [...text.matchAll(new RegExp(`\\b${clause.split(/\s+/).pop()}\\.(\\w+)`, 'g'))].map((use) => use[1]!);
      for (const name of new Set(names)) if (owned.has(name)) uses.push(`${file}: ${name} (${target})`);
    }
  }
  return uses.sort();
}

describe('each context owns its read side: no entity of one context in another’s code', () => {
  const files = sources(API_SRC);
  const entities = entitiesByContext(files);

  it('finds the entities of every read model', () => {
    expect(entities.get('identity')).toEqual(new Set(['UserRecord', 'USERS_ENTITIES']));
    expect([...(entities.get('billing') ?? [])]).toEqual(expect.arrayContaining(['PaymentRecord', 'PayerRecord', 'BILLING_ENTITIES']));
    expect([...(entities.get('catalog') ?? [])]).toEqual(expect.arrayContaining(['ModelRecord', 'CATALOG_ENTITIES']));
    expect([...(entities.get('audit') ?? [])]).toEqual(expect.arrayContaining(['AUDIT_TRAIL_ENTITIES']));
  });

  it('no context’s code uses another context’s entities, but for the known ones listed', () => {
    expect(crossContextEntityUses(files, entities)).toEqual(Object.keys(KNOWN).sort());
  });

  it('the check sees an entity however it is imported, and lets tests, the own context and query APIs be', () => {
    const identity = new Map([['identity', new Set(['UserRecord', 'USERS_ENTITIES'])]]);
    const check = (file: string, text: string) => crossContextEntityUses([{ file, text }], identity);
    expect(
      check(
        'billing/application/x.ts',
        "import { DATABASE } from '../../platform/database/database';\nimport { UserRecord } from '../../identity';",
      ),
    ).toEqual(['billing/application/x.ts: UserRecord (identity)']);
    expect(check('catalog/x.ts', "import {\n  type UserRecord as U,\n  UserDirectory,\n} from '../identity';")).toEqual([
      'catalog/x.ts: UserRecord (identity)',
    ]);
    expect(check('catalog/x.ts', "import * as identity from '../identity';\nconst all = identity.USERS_ENTITIES;")).toEqual([
      'catalog/x.ts: USERS_ENTITIES (identity)',
    ]);
    expect(check('catalog/x.ts', "import { UserDirectory } from '../identity';")).toEqual([]);
    expect(check('identity/http/x.ts', "import { UserRecord } from '../projections/users.entities';")).toEqual([]);
    expect(check('billing/x.int.spec.ts', "import { UserRecord } from '../identity';")).toEqual([]);
    expect(check('catalog/testing/kit.ts', "import { UserRecord } from '../../identity';")).toEqual([]);
  });
});

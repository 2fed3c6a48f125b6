import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One write path (issue 11): every append goes through a command on the CommandBus and its
 * handler. An aggregate repository's `execute` (load, decide, append) may be called only
 * from a `*.handler.ts` file, never from a controller, a webhook receiver, a clock or a
 * service class.
 */

const API_SRC = path.resolve(__dirname, '../..');

interface Source {
  file: string;
  text: string;
}

function sources(dir: string): Source[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.spec.ts')) return [];
    return [{ file: path.relative(API_SRC, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') }];
  });
}

/** The names aggregate repositories are held under (`readonly payments: AggregateRepository<...>`). */
function repositoryNames(files: Source[]): string[] {
  const names = files.flatMap(({ text }) => [...text.matchAll(/(\w+)\s*!?:\s*AggregateRepository\s*</g)].map((m) => m[1]!));
  return [...new Set(names)].sort();
}

/** Files outside `*.handler.ts` that call `execute(` on one of `repositories`, with the line. */
function appendsOutsideHandlers(files: Source[], repositories: string[]): string[] {
  // `payments.execute(`, `this.billing.payments.execute(`, and `users\n      .execute(` alike.
  const call = new RegExp(`\\b(?:${repositories.join('|')})\\s*\\??\\.\\s*execute\\s*\\(`, 'g');
  return files
    .filter(({ file }) => !file.endsWith('.handler.ts'))
    .flatMap(({ file, text }) => [...text.matchAll(call)].map((match) => `${file}:${text.slice(0, match.index).split('\n').length}`));
}

describe('one write path: appends only in command handlers', () => {
  const files = sources(API_SRC);
  const repositories = repositoryNames(files);

  it('finds the repositories of every context', () => {
    expect(repositories).toEqual(
      expect.arrayContaining(['downloads', 'models', 'payments', 'plans', 'preferences', 'releases', 'subscriptions', 'users']),
    );
  });

  it('no file outside a *.handler.ts executes an aggregate repository', () => {
    expect(appendsOutsideHandlers(files, repositories)).toEqual([]);
  });

  it('only command handlers wait for read models (read-your-writes), never a controller or a query', () => {
    // The contexts' own `caughtUp` helpers, and the projection runtime, define the wait; the
    // networks plan-limits follower and the entitlement stream's tail, log consumers, read read
    // models only once they include the events they handle. Tests' own helpers (testing/) wait
    // before reading what they wrote, as a test should.
    const definers = new Set([
      'billing/application/billing-context.ts',
      'catalog/application/catalog-context.ts',
      'identity/application/user-directory.ts',
      'networks/application/devices/devices-context.ts',
      'networks/application/network-context.ts',
      'networks/application/network-plan-limits.follower.ts',
      'networks/application/entitlement-stream/entitlement-stream.tail.ts',
      'webhooks/application/webhooks-context.ts',
    ]);
    const wait = /\b(?:caughtUp|caughtUpTo|readYourWrites|waitForProjection)\s*\(/g;
    const waits = files
      .filter(({ file }) => !file.endsWith('.handler.ts') && !definers.has(file) && !/^(platform\/projections|testing)\//.test(file))
      .flatMap(({ file, text }) => [...text.matchAll(wait)].map((match) => `${file}:${text.slice(0, match.index).split('\n').length}`));
    expect(waits).toEqual([]);
  });

  it('the check sees appends however they are written, and ignores the command bus', () => {
    const sample = (file: string, text: string) => appendsOutsideHandlers([{ file, text }], ['payments', 'users']);
    expect(sample('billing/infrastructure/webhooks.ts', 'await this.billing.payments.execute(id, command);')).toEqual([
      'billing/infrastructure/webhooks.ts:1',
    ]);
    expect(sample('identity/http/x.controller.ts', 'const a = 1;\nawait users\n  .execute(id, command);')).toEqual([
      'identity/http/x.controller.ts:2',
    ]);
    expect(sample('billing/application/refund-payment.handler.ts', 'await this.billing.payments.execute(id, command);')).toEqual([]);
    expect(sample('billing/http/x.controller.ts', 'await this.commands.execute(new RefundPayment());')).toEqual([]);
  });
});

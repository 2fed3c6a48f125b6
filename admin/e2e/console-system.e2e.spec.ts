import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { readFailures } from '../../api/src/platform/projections/consumer-failures';
import type { ProjectionsHost } from '../../api/src/platform/projections/projections-host';
import { releaseWithHugeVersionPart } from '@meshwork/testkit/api/poison-events';
import { quickStall, startWorkers } from '@meshwork/testkit/api/workers';
import { EVENT_STORE, type EventStore } from '../../api/src/platform/event-store/event-store.port';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { eventually } from '@meshwork/testkit/eventually';
import type { TestApp } from '@meshwork/testkit/api/test-app';
import type { AuthResponse } from '@meshwork/contracts';
import { ensureConsoleBuilt } from './console-kit';

/**
 * The dashboard's System card in a real browser: a projection stalled on an event it cannot
 * apply (a desktop release whose version has a part past 2^31), with the event and error;
 * Retry after a fix clears it, and Skip asks for a reason and says what it does first.
 */
describe('staff console: System card (real browser)', () => {
  let site: BrowserTest;
  let subject: TestApp;
  let workers: ProjectionsHost;
  let base = '';
  let staff: AuthResponse;

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ PROJECTIONS_IN_PROCESS: 'false' });
    ({ subject, base } = site);
    workers = await startWorkers(subject.app, quickStall);
    staff = await registerAccount(subject.app, 'staff', randomUUID().slice(0, 6), true);
  }, 240_000);

  afterAll(async () => {
    await workers?.onApplicationShutdown();
    await site?.close();
  });
  afterEach(() => site.closePages());

  /** Appends an event the catalog cannot apply and waits until it has stalled on it. */
  async function stallCatalog(versionPart?: string): Promise<number> {
    const poison = releaseWithHugeVersionPart(versionPart);
    const [position] = (await subject.app.get<EventStore>(EVENT_STORE).append(poison.streamId, poison.events, 0)).positions;
    await eventually(async () => (await readFailures(subject.db.pool, ['catalog'])).get('catalog')?.state === 'stalled', 'stall');
    return position!;
  }

  /** The console's dashboard, recording what appears (a toast lasts seconds). */
  async function dashboard(): Promise<Page> {
    const page = await site.openPage(staff, { viewport: { width: 1400, height: 1200 } });
    await recordAppearances(page);
    await page.goto(`${base}/admin/`);
    await page.getByRole('heading', { name: 'System' }).waitFor();
    return page;
  }

  const row = (page: Page, name: string) => page.getByRole('listitem', { name, exact: true });

  it('shows the stalled projection with its event and error, and Retry after a fix clears it', async () => {
    const position = await stallCatalog();
    const page = await dashboard();
    const catalog = row(page, 'catalog');
    await catalog.getByText('Stalled', { exact: true }).waitFor();
    await catalog.getByText(`Cannot apply event ${position} (ReleaseUploaded`).waitFor();
    await catalog.getByText(/out of range for type integer/).waitFor();
    await row(page, 'users').getByText('Up', { exact: true }).waitFor();

    // The fix: the sort key takes bigger numbers. Then Retry.
    await subject.db.pool.query('ALTER TABLE rm_catalog.releases ALTER COLUMN version_key TYPE bigint[]');
    await catalog.getByRole('button', { name: 'Retry' }).click();
    await catalog.getByText('Up', { exact: true }).waitFor();
    expect(await catalog.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await readFailures(subject.db.pool, ['catalog'])).toEqual(new Map());
  });

  it('skips the event only with a reason, after saying what it does, on the record', async () => {
    // Past what even a bigint holds, whatever fix an earlier test made.
    const position = await stallCatalog(`${'9'.repeat(20)}${Math.floor(Math.random() * 1_000)}`);
    const page = await dashboard();
    const catalog = row(page, 'catalog');
    await catalog.getByRole('button', { name: 'Skip event…' }).click();

    const dialog = page.getByRole('dialog');
    await dialog.getByText(`catalog will move past event ${position} (ReleaseUploaded) without applying it`).waitFor();
    const skip = dialog.getByRole('button', { name: `Skip event ${position}` });
    expect(await skip.isDisabled()).toBe(true);
    await dialog.getByLabel('Reason').fill('Bad version; uploaded again as 1.0.4');
    await skip.click();
    await waitForAppearance(page, 'Event skipped; the projection goes on', { announced: true });
    await catalog.getByText('Up', { exact: true }).waitFor();

    const decisions = await subject.app.get<EventStore>(EVENT_STORE).readStream('projection-catalog');
    expect(decisions.map((d) => d.data)).toContainEqual(
      expect.objectContaining({ position, reason: 'Bad version; uploaded again as 1.0.4', eventType: 'ReleaseUploaded' }),
    );
    expect(decisions.at(-1)!.metadata.actor.userId).toBe(staff.user.id);
  });
});

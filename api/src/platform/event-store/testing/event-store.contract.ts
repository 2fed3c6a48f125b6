import { randomUUID } from 'node:crypto';
import { eventually } from '@meshwork/testkit/eventually';
import type { RecordedEvent } from '@meshwork/contracts';
import { PartialDuplicateAppendError, UniqueValueTakenError, WrongExpectedVersionError } from '../event-store.errors';
import type { EventStore } from '../event-store.port';
import { Upcasters } from '../upcasters';
import { anEvent, events } from '@meshwork/testkit/api/an-event';

export interface ContractSubject {
  store: EventStore;
  teardown(): Promise<void>;
}

/**
 * What every EventStore implementation must do. Parametrised by a factory that gives a
 * fresh, empty store, so a KurrentDB adapter runs exactly these tests.
 */
export function eventStoreContract(name: string, makeStore: (upcasters?: Upcasters) => Promise<ContractSubject>): void {
  describe(`EventStore contract: ${name}`, () => {
    let subject: ContractSubject;
    let store: EventStore;
    beforeEach(async () => {
      subject = await makeStore();
      store = subject.store;
    });
    afterEach(() => subject.teardown());

    async function readEverything(): Promise<RecordedEvent[]> {
      const all: RecordedEvent[] = [];
      for (let page = await store.readAll(0, 1000); page.length > 0; page = await store.readAll(all[all.length - 1]!.position, 1000)) {
        all.push(...page);
      }
      return all;
    }

    describe('append and read back', () => {
      it('keeps every field of the envelope', async () => {
        const event = anEvent({
          type: 'PlanChanged',
          schemaVersion: 1,
          data: { from: 'free', to: 'pro', nested: { list: [1, 'two', null] } },
          metadata: {
            correlationId: randomUUID(),
            causationId: randomUUID(),
            actor: { userId: 'user-7', isStaff: true, ip: '10.1.2.3', userAgent: 'Mozilla/5.0' },
          },
        });
        const result = await store.append('subscription-1', [event], 0);
        expect(result).toMatchObject({ nextExpectedVersion: 1, alreadyAppended: false });
        expect(result.positions).toHaveLength(1);

        const [read] = await store.readStream('subscription-1');
        expect(read).toMatchObject({
          eventId: event.eventId,
          type: 'PlanChanged',
          schemaVersion: 1,
          data: event.data,
          metadata: event.metadata,
          streamId: 'subscription-1',
          streamVersion: 1,
          position: result.positions[0],
        });
        expect(read!.occurredAt.toISOString()).toBe(event.occurredAt.toISOString());
      });

      it('numbers a stream from 1 and reads from a given version', async () => {
        await store.append('user-1', events(3), 0);
        await store.append('user-1', events(2), 3);
        expect((await store.readStream('user-1')).map((e) => e.streamVersion)).toEqual([1, 2, 3, 4, 5]);
        expect((await store.readStream('user-1', 4)).map((e) => e.streamVersion)).toEqual([4, 5]);
        expect(await store.readStream('user-unknown')).toEqual([]);
      });

      it("tells a stream's version without reading it, 0 for none", async () => {
        await store.append('count-1', events(3), 0);
        await store.append('count-1', events(2), 3);
        await store.append('count-2', events(1), 0);
        expect(await store.streamVersion('count-1')).toBe(5);
        expect(await store.streamVersion('count-2')).toBe(1);
        expect(await store.streamVersion('count-unknown')).toBe(0);
      });

      it('keeps a stream in the same order in the global log', async () => {
        await store.append('a-1', events(50), 0);
        const all = await readEverything();
        expect(all.map((e) => e.streamVersion)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
        expect(all.map((e) => e.position)).toEqual([...all.map((e) => e.position)].sort((x, y) => x - y));
      });

      it('stores a large payload intact', async () => {
        const big = { blob: 'x'.repeat(2_000_000), list: Array.from({ length: 10_000 }, (_, i) => ({ i, s: `item-${i}` })) };
        await store.append('big-1', [anEvent({ data: big })], 0);
        const [read] = await store.readStream('big-1');
        expect(read!.data).toEqual(big);
      });

      it('holds a stream of 10,000 events', async () => {
        for (let version = 0; version < 10_000; version += 500) {
          await store.append('long-1', events(500), version);
        }
        const stream = await store.readStream('long-1');
        expect(stream).toHaveLength(10_000);
        expect(stream.every((e, i) => e.streamVersion === i + 1)).toBe(true);
        expect((await readEverything()).length).toBe(10_000);
        expect(await store.headPosition()).toBe(stream[9_999]!.position);
      });
    });

    describe('optimistic concurrency', () => {
      it('refuses an append at the wrong version and writes nothing', async () => {
        await store.append('user-2', events(2), 0);
        await expect(store.append('user-2', events(1), 1)).rejects.toBeInstanceOf(WrongExpectedVersionError);
        await expect(store.append('user-2', events(1), 0)).rejects.toBeInstanceOf(WrongExpectedVersionError);
        await expect(store.append('user-new', events(1), 3)).rejects.toBeInstanceOf(WrongExpectedVersionError);
        expect(await store.readStream('user-2')).toHaveLength(2);
        expect(await store.readStream('user-new')).toHaveLength(0);
      });

      it("appends without a check when the writer says 'any'", async () => {
        await store.append('log-1', events(1), 'any');
        const result = await store.append('log-1', events(2), 'any');
        expect(result.nextExpectedVersion).toBe(3);
      });

      it('lets exactly one of many conflicting writers win', async () => {
        await store.append('race-1', events(1), 0);
        const outcomes = await Promise.allSettled(Array.from({ length: 16 }, () => store.append('race-1', events(1), 1)));
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(15);
        expect(lost.every((o) => o.reason instanceof WrongExpectedVersionError)).toBe(true);
        expect(await store.readStream('race-1')).toHaveLength(2);
      });
    });

    describe('idempotency', () => {
      it('treats the same event ids again as done, writing nothing', async () => {
        const batch = events(3);
        const first = await store.append('order-1', batch, 0);
        const again = await store.append('order-1', batch, 0);
        expect(again).toEqual({ nextExpectedVersion: 3, positions: first.positions, alreadyAppended: true });
        expect(await store.readStream('order-1')).toHaveLength(3);
      });

      it('treats an event id already in the stream as done at any expected version, taking no version', async () => {
        // What a counter stream keyed by event id relies on (the invoice series): a late retry
        // at the stream's current version must neither append nor move the version.
        const [issued] = events(1);
        await store.append('series-1', [issued!], 0);
        await store.append('series-1', events(1), 1);
        await expect(store.append('series-1', [issued!], 2)).resolves.toMatchObject({ alreadyAppended: true });
        await expect(store.append('series-1', [issued!], 1)).resolves.toMatchObject({ alreadyAppended: true });
        expect(await store.streamVersion('series-1')).toBe(2);
        expect(await store.append('series-1', events(1), 2)).toMatchObject({ nextExpectedVersion: 3, alreadyAppended: false });
      });

      it('lets concurrent retries of one append all succeed with one copy stored', async () => {
        const batch = events(2);
        const results = await Promise.all(Array.from({ length: 8 }, () => store.append('order-2', batch, 0)));
        expect(results.filter((r) => !r.alreadyAppended)).toHaveLength(1);
        expect(new Set(results.map((r) => r.positions.join()))).toEqual(new Set([results[0]!.positions.join()]));
        expect(await store.readStream('order-2')).toHaveLength(2);
      });

      it('refuses a batch that is only partly appended already', async () => {
        const batch = events(2);
        await store.append('order-3', [batch[0]!], 0);
        await expect(store.append('order-3', batch, 1)).rejects.toBeInstanceOf(PartialDuplicateAppendError);
        expect(await store.readStream('order-3')).toHaveLength(1);
      });
    });

    describe('unique values across streams', () => {
      const email = (value: string) => ({ scope: 'email', value });

      it('refuses a value another stream holds, and frees it on release', async () => {
        await store.append('user-a', events(1), 0, { claim: [email('ann@example.com')] });
        await expect(store.append('user-b', events(1), 0, { claim: [email('ann@example.com')] })).rejects.toEqual(
          new UniqueValueTakenError('email', 'ann@example.com'),
        );
        expect(await store.readStream('user-b')).toHaveLength(0);

        await store.append('user-a', events(1), 1, { release: [email('ann@example.com')], claim: [email('ann@new.example.com')] });
        await store.append('user-b', events(1), 0, { claim: [email('ann@example.com')] });
        expect(await store.readStream('user-b')).toHaveLength(1);
      });

      it('says which stream holds a value', async () => {
        await store.append('user-o', events(1), 0, { claim: [email('o@example.com')] });
        expect(await store.ownerOf(email('o@example.com'))).toBe('user-o');
        expect(await store.ownerOf(email('nobody@example.com'))).toBeNull();
        await store.append('user-o', events(1), 1, { release: [email('o@example.com')] });
        expect(await store.ownerOf(email('o@example.com'))).toBeNull();
      });

      it('lets a stream claim a value it already holds', async () => {
        await store.append('user-c', events(1), 0, { claim: [email('c@example.com')] });
        await expect(store.append('user-c', events(1), 1, { claim: [email('c@example.com')] })).resolves.toMatchObject({
          nextExpectedVersion: 2,
        });
      });

      it('gives a contested value to exactly one of many racing streams', async () => {
        const outcomes = await Promise.allSettled(
          Array.from({ length: 12 }, (_, i) => store.append(`user-r${i}`, events(1), 0, { claim: [email('race@example.com')] })),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        expect((await readEverything()).length).toBe(1);
      });
    });

    describe('catch-up reading while many write', () => {
      it('hands a reader every event exactly once, in order, with 16 writers racing', async () => {
        const writers = 16;
        const appendsPerWriter = 40;
        let writing = true;
        const seen: RecordedEvent[] = [];
        const reader = (async () => {
          let checkpoint = 0;
          for (;;) {
            const stillWriting = writing; // read before the page: a last full pass after writers stop
            const page = await store.readAll(checkpoint, 97);
            seen.push(...page);
            if (page.length > 0) checkpoint = page[page.length - 1]!.position;
            else if (!stillWriting) return;
          }
        })();

        const expected = new Set<string>();
        await Promise.all(
          Array.from({ length: writers }, async (_, w) => {
            let version = 0;
            for (let i = 0; i < appendsPerWriter; i++) {
              const batch = events(1 + (i % 3));
              batch.forEach((e) => expected.add(e.eventId));
              // Some appends also lose a race on a shared stream and fail midway.
              if (i % 7 === 0) await store.append('contended-1', events(1), 0).catch(() => undefined);
              version = (await store.append(`writer-${w}`, batch, version)).nextExpectedVersion;
            }
          }),
        );
        writing = false;
        await reader;

        const ids = seen.map((e) => e.eventId);
        expect(new Set(ids).size).toBe(ids.length); // exactly once
        const seenWriterEvents = seen.filter((e) => e.streamId.startsWith('writer-'));
        expect(seenWriterEvents).toHaveLength(expected.size);
        expect(seenWriterEvents.every((e) => expected.has(e.eventId))).toBe(true);
        const positions = seen.map((e) => e.position);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        for (let w = 0; w < writers; w++) {
          const versions = seen.filter((e) => e.streamId === `writer-${w}`).map((e) => e.streamVersion);
          expect(versions).toEqual(versions.map((_, i) => i + 1));
        }
      });

      it('wakes a waiting reader when something is appended', async () => {
        // Longer than any test may run: only an append ends this wait (close() ends it if the test fails).
        let woken = false;
        void store.waitForAppend(24 * 3_600_000).then(() => (woken = true));
        // Appends until the reader wakes: the first may come before the wait has begun (it starts with a LISTEN).
        let appended = 0;
        await eventually(async () => {
          if (!woken) await store.append(`wake-${++appended}`, events(1), 0);
          return woken;
        }, 'the waiting reader to wake');
        expect(appended).toBeGreaterThan(0);
      });
    });

    describe('schema versions', () => {
      it('upcasts old events on read', async () => {
        const upcasters = new Upcasters()
          .register('UserRegistered', 1, (d) => ({ ...(d as object), name: { full: (d as { name: string }).name } }))
          .register('UserRegistered', 2, (d) => ({ ...(d as object), locale: 'en' }));
        const upcasting = await makeStore(upcasters);
        try {
          await upcasting.store.append('user-u', [anEvent({ type: 'UserRegistered', schemaVersion: 1, data: { name: 'Ann' } })], 0);
          const [read] = await upcasting.store.readStream('user-u');
          expect(read).toMatchObject({ schemaVersion: 3, data: { name: { full: 'Ann' }, locale: 'en' } });
          const [fromLog] = await upcasting.store.readAll(0, 10);
          expect(fromLog!.schemaVersion).toBe(3);
        } finally {
          await upcasting.teardown();
        }
      });
    });
  });
}

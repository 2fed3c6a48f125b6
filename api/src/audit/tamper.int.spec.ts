import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuthResponse } from '@meshwork/contracts';
import { SECRETS, type Secrets } from '../platform/config/secrets';
import { CHAINED_COLUMNS, type ChainedRow, link, sealKey } from '../platform/event-store/chain/log-chain';
import { SEAL_EVERY_EVENTS, SEALER_NAME } from '../platform/event-store/chain/log-sealer';
import { verifyLogChain } from '../platform/event-store/chain/verify-log-chain';
import { EVENT_STORE, type EventStore } from '../platform/event-store/event-store.port';
import { anEvent, events } from '@meshwork/testkit/api/an-event';
import { OBJECT_STORAGE, type ObjectStorage } from '../platform/storage/object-storage';
import { registerAccount, registerCustomer } from '@meshwork/testkit/api/accounts';
import { eventually } from '@meshwork/testkit/eventually';
import { caughtUp, startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

describe('the event log’s hash chain: tampering is found, erasure is not tampering', () => {
  let subject: TestApp;
  let staff: AuthResponse;
  let key: Buffer;
  let anchors: ObjectStorage;
  let store: EventStore;
  const http = () => request(subject.app.getHttpServer());
  const sql = (text: string, values: unknown[] = []) => subject.db.pool.query(text, values);
  /** Waits until the sealer has chained every event so far; answers the head of the log. */
  const sealed = async () => {
    const head = Number((await sql('SELECT max(position) AS head FROM es_events')).rows[0].head);
    await caughtUp(subject, SEALER_NAME);
    return head;
  };
  const sealedTo = async () => Number((await sql('SELECT coalesce(max(position), 0) AS p FROM es_seals')).rows[0].p);
  /** Waits until every event is chained, a seal covers the head and every seal is anchored; answers the head. */
  const settled = async () => {
    const head = await sealed();
    await eventually(async () => {
      const { rows } = await sql('SELECT coalesce(max(position), 0) AS p, coalesce(bool_and(anchored), true) AS anchored FROM es_seals');
      return Number(rows[0].p) >= head && rows[0].anchored === true;
    }, 'a seal over the head of the log, every seal anchored');
    return head;
  };
  const sealsFrom = async (position: number) =>
    (
      await sql('SELECT seq, position, hash, signature, format, anchored, sealed_at FROM es_seals WHERE position >= $1 ORDER BY seq', [
        position,
      ])
    ).rows;
  const restoreSeals = async (seals: Record<string, unknown>[]) => {
    for (const s of seals)
      await sql('INSERT INTO es_seals (seq, position, hash, signature, format, anchored, sealed_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        s.seq,
        s.position,
        s.hash,
        s.signature,
        s.format,
        s.anchored,
        s.sealed_at,
      ]);
  };
  const linksFrom = async (position: number) =>
    (await sql('SELECT position, hash FROM es_chain WHERE position >= $1 ORDER BY position', [position])).rows as {
      position: string;
      hash: Buffer;
    }[];
  const setLinks = (links: { position: string; hash: Buffer }[]) =>
    sql('UPDATE es_chain c SET hash = u.hash FROM unnest($1::bigint[], $2::bytea[]) AS u(position, hash) WHERE c.position = u.position', [
      links.map((l) => l.position),
      links.map((l) => l.hash),
    ]);
  /** What a database administrator can do: recompute every link from `position` on over the rows as they are now. */
  const relinkFrom = async (position: number) => {
    const before = (await sql('SELECT hash FROM es_chain WHERE position < $1 ORDER BY position DESC LIMIT 1', [position])).rows[0];
    let hash: Buffer = before?.hash ?? Buffer.alloc(32);
    const rows = (
      await sql(`SELECT ${CHAINED_COLUMNS} FROM es_events WHERE es_events.position >= $1 ORDER BY es_events.position`, [position])
    ).rows as ChainedRow[];
    await setLinks(rows.map((row) => ({ position: row.position, hash: (hash = link(hash, row)) })));
  };
  /** Runs `change` on the log, verifies, and puts the log back as it was. */
  const verifyAfter = async (change: () => Promise<unknown>, undo: () => Promise<unknown>) => {
    await change();
    try {
      return await verifyLogChain(subject.db.pool, key);
    } finally {
      await undo();
    }
  };

  beforeAll(async () => {
    subject = await startTestApp();
    key = sealKey(subject.app.get<Secrets>(SECRETS).dataEncryptionKey);
    anchors = subject.app.get<ObjectStorage>(OBJECT_STORAGE);
    store = subject.app.get<EventStore>(EVENT_STORE);
    staff = await registerAccount(subject.app, 'staff', randomUUID().slice(0, 6), true);
    for (let i = 0; i < 3; i++) await registerCustomer(subject.app);
  });
  afterAll(() => subject.close());

  it('verifies an untouched log to its end, also after an account is erased, and the console sees the verdict', async () => {
    const erased = await registerCustomer(subject.app);
    await erased.post('/users/delete-account/').expect(200);
    const head = await sealed();
    const verdict = await verifyLogChain(subject.db.pool, key);
    expect(verdict).toMatchObject({ verifiedTo: head, firstBroken: null, problem: null });
    expect(verdict.events).toBe(Number((await sql('SELECT count(*) FROM es_events')).rows[0].count));
    const integrity = await http()
      .get('/api/v1/admin-panel/audit/integrity/')
      .set('Authorization', `Bearer ${staff.tokens.access}`)
      .expect(200);
    expect(integrity.body).toMatchObject({ chained_to: head, last_verification: { verified_to: head, first_broken: null } });
    expect(integrity.body.sealed_to).toBeGreaterThan(0);
    expect(integrity.body.sealed_to).toBeLessThanOrEqual(head);
  });

  it('names the position of a row changed with SQL', async () => {
    await sealed();
    const { position, data } = (
      await sql("SELECT position::int, data FROM es_events WHERE type = 'UserRegistered' ORDER BY position LIMIT 1 OFFSET 1")
    ).rows[0];
    const verdict = await verifyAfter(
      () => sql(`UPDATE es_events SET data = jsonb_set(data, '{isStaff}', 'true') WHERE position = $1`, [position]),
      () => sql('UPDATE es_events SET data = $2 WHERE position = $1', [position, data]),
    );
    expect(verdict).toMatchObject({ firstBroken: position, problem: 'the event does not match its link in the chain' });
    expect((await verifyLogChain(subject.db.pool, key)).firstBroken).toBeNull();
  });

  it('names a deleted row, and an event added without a link', async () => {
    await sealed();
    const row = (await sql('SELECT position::int FROM es_events ORDER BY position LIMIT 1 OFFSET 2')).rows[0];
    // Moved out of the log's range rather than deleted, so it comes back to the microsecond.
    const deleted = await verifyAfter(
      () => sql('UPDATE es_events SET position = -position WHERE position = $1', [row.position]),
      () => sql('UPDATE es_events SET position = -position WHERE position = $1', [-row.position]),
    );
    expect(deleted).toMatchObject({ firstBroken: Number(row.position), problem: 'the event is missing from the log' });
    const link0 = (await sql('SELECT hash FROM es_chain WHERE position = $1', [row.position])).rows[0].hash;
    const unlinked = await verifyAfter(
      () => sql('DELETE FROM es_chain WHERE position = $1', [row.position]),
      () => sql('INSERT INTO es_chain (position, hash) VALUES ($1, $2)', [row.position, link0]),
    );
    // The next link was made from the removed one, so the chain parts right after it... or the row shows as added.
    expect(unlinked.firstBroken).toBeGreaterThanOrEqual(Number(row.position));
    expect((await verifyLogChain(subject.db.pool, key)).firstBroken).toBeNull();
  });

  it('catches a rewrite that recomputes every link after it, at the first signed seal past the change', async () => {
    for (let i = 0; i < 3; i++) await registerCustomer(subject.app);
    await sealed();
    // The change is to the first event: any seal is past it (the sealer signs on first reaching the head).
    const position = Number((await sql('SELECT min(position) AS p FROM es_events')).rows[0].p);
    await eventually(async () => (await sealedTo()) >= position, 'a signed seal past the first event');
    const firstSeal = Number((await sql('SELECT min(position) AS p FROM es_seals')).rows[0].p);
    const original = (await sql('SELECT data FROM es_events WHERE position = $1', [position])).rows[0].data;
    const links = (await sql('SELECT position, hash FROM es_chain ORDER BY position')).rows;
    const relink = async () => {
      const rows = (await sql(`SELECT ${CHAINED_COLUMNS} FROM es_events ORDER BY es_events.position`)).rows as ChainedRow[];
      let hash: Buffer = Buffer.alloc(32);
      for (const row of rows) {
        hash = link(hash, row);
        await sql('UPDATE es_chain SET hash = $2 WHERE position = $1', [row.position, hash]);
      }
    };
    const verdict = await verifyAfter(
      async () => {
        await sql(`UPDATE es_events SET data = jsonb_set(data, '{isStaff}', 'true') WHERE position = $1`, [position]);
        await relink();
      },
      async () => {
        await sql('UPDATE es_events SET data = $2 WHERE position = $1', [position, original]);
        for (const l of links) await sql('UPDATE es_chain SET hash = $2 WHERE position = $1', [l.position, l.hash]);
      },
    );
    // Every link after the change matches the rewritten rows: the first seal past it is what tells.
    expect(verdict).toMatchObject({ firstBroken: firstSeal, problem: 'a signed seal does not match the chain' });
    expect((await verifyLogChain(subject.db.pool, key)).firstBroken).toBeNull();
  });

  it(`seals at least every ${SEAL_EVERY_EVENTS} events, numbered and chained, each anchored in the object store`, async () => {
    for (let i = 0; i < 5; i++) await store.append(`burst-${randomUUID()}`, events(500), 'any');
    const head = await settled();
    const seals = (await sql('SELECT seq::int, position::int FROM es_seals ORDER BY seq')).rows as { seq: number; position: number }[];
    expect(seals.map((s) => s.seq)).toEqual(seals.map((_, i) => i + 1));
    expect(seals[seals.length - 1]!.position).toBe(head);
    const gaps = await sql(
      `SELECT max(n)::int AS widest FROM (
         SELECT count(c.position) AS n FROM es_seals s LEFT JOIN es_seals p ON p.seq = s.seq - 1
           JOIN es_chain c ON c.position > coalesce(p.position, 0) AND c.position <= s.position GROUP BY s.seq) g`,
    );
    expect(gaps.rows[0].widest).toBeLessThanOrEqual(SEAL_EVERY_EVENTS);
    expect(seals.length).toBeGreaterThanOrEqual(3);
    expect(await verifyLogChain(subject.db.pool, key, { anchors })).toMatchObject({ verifiedTo: head, firstBroken: null });
  });

  it('seals an idle tail without waiting for new activity', async () => {
    await settled();
    const [first] = (await store.append(`idle-${randomUUID()}`, [anEvent()], 'any')).positions;
    await eventually(async () => (await sealedTo()) >= first!, 'a seal over the first event');
    // Appended right after a seal: the head of the log is reached too soon for another, and then nothing more happens.
    const [second] = (await store.append(`idle-${randomUUID()}`, [anEvent()], 'any')).positions;
    await eventually(async () => (await sealedTo()) >= second!, 'a seal over the idle tail');
  });

  it('catches an actor rewritten, the links after it recomputed and the seals past it deleted: by the gap, or by the anchors', async () => {
    await settled();
    const first = (await sql('SELECT position::int FROM es_seals WHERE seq = 1')).rows[0].position as number;
    const { position, metadata } = (
      await sql(
        "SELECT position::int, metadata FROM es_events WHERE position > $1 AND metadata->'actor'->>'userId' IS NOT NULL ORDER BY position LIMIT 1",
        [first],
      )
    ).rows[0];
    const links = await linksFrom(position);
    const deleted = await sealsFrom(position);
    expect(deleted.length).toBeGreaterThanOrEqual(2);
    const lastKept = Number((await sql('SELECT max(position) AS p FROM es_seals WHERE position < $1', [position])).rows[0].p);
    const rewrite = async (seals: 'all past it' | 'one in the middle') => {
      await sql(`UPDATE es_events SET metadata = jsonb_set(metadata, '{actor,userId}', '"someone-else"') WHERE position = $1`, [position]);
      await relinkFrom(position);
      if (seals === 'all past it') await sql('DELETE FROM es_seals WHERE position >= $1', [position]);
      else await sql('DELETE FROM es_seals WHERE seq = $1', [deleted[0].seq]);
    };
    const undo = async () => {
      await sql('UPDATE es_events SET metadata = $2 WHERE position = $1', [position, metadata]);
      await setLinks(links);
      await sql('DELETE FROM es_seals WHERE position >= $1', [position]);
      await restoreSeals(deleted);
    };
    // A seal deleted from the middle leaves a gap in the numbers, whatever the database says otherwise.
    const gap = await verifyAfter(() => rewrite('one in the middle'), undo);
    expect(gap).toMatchObject({ firstBroken: lastKept + 1, problem: expect.stringMatching(/^seal \d+ is missing/) });
    // Deleting every seal past the change leaves the database consistent: only the object store still knows.
    await rewrite('all past it');
    try {
      expect((await verifyLogChain(subject.db.pool, key)).firstBroken).toBeNull();
      const anchored = await verifyLogChain(subject.db.pool, key, { anchors });
      expect(anchored).toMatchObject({ firstBroken: lastKept + 1, verifiedTo: lastKept });
      expect(anchored.problem).toMatch(
        new RegExp(`^seal ${deleted[0].seq} \\(up to position \\d+\\) is anchored in the object store but gone from the database$`),
      );
    } finally {
      await undo();
    }
    expect((await verifyLogChain(subject.db.pool, key, { anchors })).firstBroken).toBeNull();
  });

  it('catches the end of the log cut off with its links and seals, by the anchors', async () => {
    for (let i = 0; i < 3; i++) await registerCustomer(subject.app);
    const head = await settled();
    const cut = (await sql('SELECT position::int FROM es_events ORDER BY position DESC LIMIT 1 OFFSET 9')).rows[0].position as number;
    const links = await linksFrom(cut);
    const seals = await sealsFrom(cut);
    const lastKept = Number((await sql('SELECT coalesce(max(position), 0) AS p FROM es_seals WHERE position < $1', [cut])).rows[0].p);
    const beforeCut = Number((await sql('SELECT max(position) AS p FROM es_events WHERE position < $1', [cut])).rows[0].p);
    // Moved out of the log's range rather than deleted, so they come back to the microsecond.
    const cutEvents = () => sql('UPDATE es_events SET position = -position WHERE position >= $1', [cut]);
    const cutLinks = () => sql('DELETE FROM es_chain WHERE position >= $1', [cut]);
    const undo = async () => {
      await sql('UPDATE es_events SET position = -position WHERE position <= $1', [-cut]);
      await sql('INSERT INTO es_chain (position, hash) SELECT * FROM unnest($1::bigint[], $2::bytea[]) ON CONFLICT DO NOTHING', [
        links.map((l) => l.position),
        links.map((l) => l.hash),
      ]);
      await sql('DELETE FROM es_seals WHERE position >= $1', [cut]);
      await restoreSeals(seals);
    };
    // Events and links cut, seals left: the chain ends before the last seal says it does.
    const seal = seals[seals.length - 1];
    const short = await verifyAfter(async () => {
      await cutEvents();
      await cutLinks();
    }, undo);
    expect(short).toMatchObject({ firstBroken: beforeCut + 1, problem: `the chain ends before seal ${seal.seq} at position ${head}` });
    // Seals cut too: the database alone cannot tell, the object store can.
    await cutEvents();
    await cutLinks();
    await sql('DELETE FROM es_seals WHERE position >= $1', [cut]);
    try {
      expect((await verifyLogChain(subject.db.pool, key)).firstBroken).toBeNull();
      const anchored = await verifyLogChain(subject.db.pool, key, { anchors });
      expect(anchored).toMatchObject({ firstBroken: lastKept + 1 });
      expect(anchored.problem).toMatch(/is anchored in the object store but gone from the database$/);
    } finally {
      await undo();
    }
    expect((await verifyLogChain(subject.db.pool, key, { anchors })).firstBroken).toBeNull();
  });
});

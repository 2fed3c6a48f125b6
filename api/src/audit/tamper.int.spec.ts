import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuthResponse } from '@meshwork/contracts';
import { SECRETS, type Secrets } from '../platform/config/secrets';
import { CHAINED_COLUMNS, type ChainedRow, link, sealKey } from '../platform/event-store/chain/log-chain';
import { SEALER_NAME } from '../platform/event-store/chain/log-sealer';
import { verifyLogChain } from '../platform/event-store/chain/verify-log-chain';
import { registerAccount, registerCustomer } from '../testing/accounts';
import { eventually } from '../testing/eventually';
import { caughtUp, startTestApp, type TestApp } from '../testing/test-app';

describe('the event log’s hash chain: tampering is found, erasure is not tampering', () => {
  let subject: TestApp;
  let staff: AuthResponse;
  let key: Buffer;
  const http = () => request(subject.app.getHttpServer());
  const sql = (text: string, values: unknown[] = []) => subject.db.pool.query(text, values);
  /** Waits until the sealer has chained every event so far; answers the head of the log. */
  const sealed = async () => {
    const head = Number((await sql('SELECT max(position) AS head FROM es_events')).rows[0].head);
    await caughtUp(subject, SEALER_NAME);
    return head;
  };
  const sealedTo = async () => Number((await sql('SELECT coalesce(max(position), 0) AS p FROM es_seals')).rows[0].p);
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
});

import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { EntitlementRevisions, entitlementRevisionMigrations } from './entitlement-revisions';

describe('entitlement revisions: a document’s seq rises when, and only when, its content changes', () => {
  let db: TestDatabase;
  let revisions: EntitlementRevisions;
  beforeAll(async () => {
    db = await createTestDatabase(entitlementRevisionMigrations);
    revisions = new EntitlementRevisions(db.pool);
  });
  afterAll(() => db.drop());

  it('keeps the seq of unchanged content however far the read models moved, and gives new content a higher one', async () => {
    expect(await revisions.seqsOf([{ deviceId: 'd1', content: 'free', position: 10 }])).toEqual([10]);
    expect(await revisions.seqsOf([{ deviceId: 'd1', content: 'free', position: 25 }])).toEqual([10]);
    expect(await revisions.seqsOf([{ deviceId: 'd1', content: 'pro', position: 30 }])).toEqual([30]);
    // Back to the old content: a new revision, never the old seq (a host refuses going back).
    expect(await revisions.seqsOf([{ deviceId: 'd1', content: 'free', position: 31 }])).toEqual([31]);
  });

  it('gives changed content the last seq plus one when the read models have not all moved past it', async () => {
    expect(await revisions.seqsOf([{ deviceId: 'd2', content: 'a', position: 40 }])).toEqual([40]);
    expect(await revisions.seqsOf([{ deviceId: 'd2', content: 'b', position: 40 }])).toEqual([41]);
  });

  it('gives no seq to changed content read at an earlier position than the last issued one (the caller reads again)', async () => {
    expect(await revisions.seqsOf([{ deviceId: 'd3', content: 'new', position: 50 }])).toEqual([50]);
    expect(await revisions.seqsOf([{ deviceId: 'd3', content: 'old', position: 45 }])).toEqual([null]);
    // The same content read earlier is still the same document.
    expect(await revisions.seqsOf([{ deviceId: 'd3', content: 'new', position: 45 }])).toEqual([50]);
  });

  it('numbers a batch in its order, a device named twice once, with batches sharing devices at once', async () => {
    const batch = (position: number, content: string) =>
      ['d9', 'd4', 'd7', 'd4'].map((deviceId) => ({ deviceId, content: `${deviceId}:${content}`, position }));
    expect(await revisions.seqsOf(batch(60, 'x'))).toEqual([60, 60, 60, 60]);
    const [one, two] = await Promise.all([revisions.seqsOf(batch(61, 'x')), revisions.seqsOf(batch(62, 'y'))]);
    expect(one.every((seq) => seq === null || seq === 60 || seq === 62)).toBe(true);
    expect(two).toEqual([62, 62, 62, 62]);
  });
});

import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hourOf, UsageLedger } from './usage-ledger';

/** The usage queue file on a real disk: survives a crash, drops damaged lines, stays bounded. */
describe('usage ledger (the queue file)', () => {
  let dir: string;
  let path: string;
  let logs: string[];
  let now: Date;
  // A small compaction size, so a test reaches it in a few hundred answers.
  const open = () => UsageLedger.open(path, { log: (m) => logs.push(m), clock: () => now, compactBytes: 16 * 1024 });
  const answer = (prompt = 10, completion = 20, busy = 300) => ({
    requests: 1,
    prompt_tokens: prompt,
    completion_tokens: completion,
    busy_ms: busy,
  });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'usage-ledger-'));
    path = join(dir, 'usage.jsonl');
    logs = [];
    now = new Date('2026-11-27T06:20:00Z');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('sums answers per device, model and hour, and a new run after a crash has every one of them', async () => {
    const first = await open();
    await first.record('d1', 'smollm2', answer());
    await first.record('d1', 'smollm2', answer(5, 5, 100));
    await first.record('d1', 'gemma3', answer());
    now = new Date('2026-11-27T07:01:00Z');
    await first.record('d1', 'smollm2', answer());
    // No close: the process died here. A torn last line is what a crash mid-write leaves.
    await appendFile(path, '{"k":"use","d":"d1","m":"smollm2","h":"2026-11-27T07:00:00.000Z","r":1,"p":');

    const again = await open();
    expect(again.pending('d1', 500)).toEqual([
      { model: 'smollm2', hour: '2026-11-27T06:00:00.000Z', requests: 2, prompt_tokens: 15, completion_tokens: 25, busy_ms: 400 },
      { model: 'gemma3', hour: '2026-11-27T06:00:00.000Z', requests: 1, prompt_tokens: 10, completion_tokens: 20, busy_ms: 300 },
      { model: 'smollm2', hour: '2026-11-27T07:00:00.000Z', requests: 1, prompt_tokens: 10, completion_tokens: 20, busy_ms: 300 },
    ]);
    expect(logs).toEqual([expect.stringMatching(/dropped 1 damaged line/)]);
    expect(again.pending('another-device', 500)).toEqual([]);
  });

  it('drops hostile or corrupt content with a log line and keeps the good lines', async () => {
    const good = { k: 'use', d: 'd1', m: 'smollm2', h: '2026-11-27T06:00:00.000Z', r: 1, p: 2, c: 3, b: 4 };
    await writeFile(
      path,
      [
        JSON.stringify(good),
        'not json at all',
        '[1,2,3]',
        JSON.stringify({ ...good, r: -5 }),
        JSON.stringify({ ...good, p: 1e300 }),
        JSON.stringify({ ...good, prompt: 'the text of a conversation' }),
        JSON.stringify({ ...good, m: '../../etc/passwd x' }),
        JSON.stringify({ ...good, h: '2026-13-45T99:00:00Z' }),
        '\u0000\u0001\u0002',
        JSON.stringify(good),
      ].join('\n'),
    );
    const ledger = await open();
    expect(ledger.figures('d1', 'smollm2', '2026-11-27T06:00:00.000Z')!.total).toEqual({
      requests: 2,
      prompt_tokens: 4,
      completion_tokens: 6,
      busy_ms: 8,
    });
    expect(logs).toEqual([expect.stringMatching(/dropped 8 damaged line/)]);
    // The damage is gone from the file: the next run reads it clean.
    logs = [];
    await open();
    expect(logs).toEqual([]);
  });

  it('sets aside unread a file far larger than it ever writes', async () => {
    await writeFile(path, 'x'.repeat(17 * 16 * 1024));
    const ledger = await open();
    expect(ledger.pending('d1', 500)).toEqual([]);
    expect(logs).toEqual([expect.stringMatching(/set aside unread/)]);
    await ledger.record('d1', 'smollm2', answer());
    expect((await open()).pending('d1', 500)).toHaveLength(1);
  });

  it('keeps what the platform confirmed: a sent hour is pending again only when it grows', async () => {
    const ledger = await open();
    await ledger.record('d1', 'smollm2', answer());
    const sent = ledger.pending('d1', 500);
    await ledger.record('d1', 'smollm2', answer());
    await ledger.markSent('d1', sent);
    expect(ledger.pending('d1', 500)).toEqual([expect.objectContaining({ requests: 2 })]);
    await ledger.markSent('d1', ledger.pending('d1', 500));
    expect(ledger.pending('d1', 500)).toEqual([]);
    expect((await open()).pending('d1', 500)).toEqual([]);
  });

  it('stays bounded: compaction keeps the figures, and drops hours sent long ago and hours older than 90 days', async () => {
    const ledger = await open();
    now = new Date('2026-08-01T10:00:00Z');
    await ledger.record('d1', 'ancient', answer());
    now = new Date('2026-11-27T01:00:00Z');
    await ledger.record('d1', 'confirmed', answer());
    await ledger.markSent(
      'd1',
      ledger.pending('d1', 500).filter((r) => r.model === 'confirmed'),
    );
    now = new Date('2026-11-27T06:20:00Z');
    for (let i = 0; i < 400; i++) await ledger.record('d1', 'smollm2', answer(1, 1, 1));
    await ledger.settle();
    expect((await stat(path)).size).toBeLessThan(16 * 1024);
    const again = await open();
    expect(again.pending('d1', 500)).toEqual([
      { model: 'smollm2', hour: hourOf(now), requests: 400, prompt_tokens: 400, completion_tokens: 400, busy_ms: 400 },
    ]);
    expect(again.figures('d1', 'confirmed', '2026-11-27T01:00:00.000Z')).toBeNull();
    expect(await readFile(path, 'utf8')).not.toContain('ancient');
  });
});

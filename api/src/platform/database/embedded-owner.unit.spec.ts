import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearOwner, isRunning, isThisProcess, processId, readOwner, writeOwner } from './embedded-owner';

describe('the owner record of the embedded PostgreSQL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-owner-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('tells a running process from one that ended, and from a later one given the same pid', () => {
    expect(isRunning(processId())).toBe(true);
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    expect(isRunning({ pid: ended, startedAt: null })).toBe(false);
    if (process.platform === 'linux') {
      // Our pid, but a start time that is not ours: the recorded owner ended and the pid was reused.
      expect(isRunning({ pid: process.pid, startedAt: '1' })).toBe(false);
      expect(processId().startedAt).toMatch(/^\d+$/);
    }
  });

  it('records, reads and clears the owner; a missing or damaged record names no one', () => {
    expect(readOwner(dataDir)).toBeNull();
    writeOwner(dataDir, processId());
    expect(isThisProcess(readOwner(dataDir))).toBe(true);
    writeOwner(dataDir, { pid: 1, startedAt: null });
    expect(isThisProcess(readOwner(dataDir))).toBe(false);
    fs.writeFileSync(path.join(dataDir, 'postgres.owner.json'), '{"pid":');
    expect(readOwner(dataDir)).toBeNull();
    clearOwner(dataDir);
    expect(readOwner(dataDir)).toBeNull();
    expect(fs.readdirSync(dataDir)).toEqual([]); // no temporary files left behind
  });
});

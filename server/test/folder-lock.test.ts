import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, currentBootId, isHeld, LOCK_FILE, parseLock, procStat, selfOwner } from '../src/core/db/folderLock.js';

const hasProc = existsSync('/proc/self/stat') && currentBootId() !== undefined;

let dir = '';
let lockFile = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'console-lock-'));
  lockFile = join(dir, LOCK_FILE);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A live process that is not us: a sleep. */
let other: ChildProcess;
beforeAll(async () => {
  other = spawn('sleep', ['30'], { stdio: 'ignore' });
  await new Promise((resolve, reject) => other.once('spawn', resolve).once('error', reject));
});
afterAll(() => {
  other.kill('SIGKILL');
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

const lockOwner = () => parseLock(readFileSync(lockFile, 'utf8'));

describe('the data folder lock', () => {
  it('is taken when there is none, records this process, and is removed on release', () => {
    const release = acquireLock(dir);
    const owner = lockOwner();
    expect(owner?.pid).toBe(process.pid);
    if (hasProc) {
      expect(owner?.startTime).toMatch(/^\d+$/);
      expect(owner?.startTime).toBe(procStat(process.pid)?.startTime);
      expect(owner?.bootId).toBe(currentBootId());
    }
    release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it.runIf(hasProc)('blocks while the live process that wrote it holds it (same pid, start time and boot)', () => {
    const start = procStat(other.pid!)?.startTime;
    expect(start).toMatch(/^\d+$/);
    writeFileSync(lockFile, JSON.stringify({ pid: other.pid, startTime: start, bootId: currentBootId() }));
    expect(() => acquireLock(dir)).toThrow(`the data folder ${dir} is in use by process ${other.pid}; stop it first or use another DATA_DIR`);
    // the holder's lock is left alone
    expect(lockOwner()?.pid).toBe(other.pid);
  });

  it.runIf(hasProc)('does not block when its pid now belongs to another live process (another start time)', () => {
    const start = Number(procStat(other.pid!)?.startTime);
    writeFileSync(lockFile, JSON.stringify({ pid: other.pid, startTime: String(start - 1), bootId: currentBootId() }));
    const release = acquireLock(dir);
    expect(lockOwner()).toEqual(selfOwner());
    release();
  });

  it.runIf(hasProc)('does not block when it was written before a reboot (another boot id)', () => {
    const start = procStat(other.pid!)?.startTime;
    writeFileSync(lockFile, JSON.stringify({ pid: other.pid, startTime: start, bootId: '00000000-0000-0000-0000-000000000000' }));
    const release = acquireLock(dir);
    expect(lockOwner()?.pid).toBe(process.pid);
    release();
  });

  it('does not block when its process is dead, in the old format (a bare pid) or the new one', async () => {
    const dead = await deadPid();
    for (const content of [String(dead), `${dead}\n`, JSON.stringify({ pid: dead, startTime: '12345', bootId: currentBootId() ?? 'x' })]) {
      writeFileSync(lockFile, content);
      const release = acquireLock(dir);
      expect(lockOwner()?.pid).toBe(process.pid);
      release();
    }
  });

  it('falls back to the pid when the lock has no start time (old format): a live pid blocks', () => {
    writeFileSync(lockFile, String(other.pid));
    expect(() => acquireLock(dir)).toThrow(/in use by process/);
  });

  it('replaces a lock of this process, and an unreadable one', () => {
    for (const content of [String(process.pid), 'garbage', '{"pid":"x"}', '']) {
      writeFileSync(lockFile, content);
      const release = acquireLock(dir);
      expect(lockOwner()?.pid).toBe(process.pid);
      release();
    }
  });

  it('release leaves a lock that another process has taken since', () => {
    const release = acquireLock(dir);
    writeFileSync(lockFile, String(other.pid));
    release();
    expect(lockOwner()?.pid).toBe(other.pid);
  });
});

describe('reading locks and processes', () => {
  it('parses both formats and refuses anything else', () => {
    expect(parseLock('1234')).toEqual({ pid: 1234 });
    expect(parseLock(' 1234\n')).toEqual({ pid: 1234 });
    expect(parseLock('{"pid":7,"startTime":"99","bootId":"b"}')).toEqual({ pid: 7, startTime: '99', bootId: 'b' });
    expect(parseLock('{"pid":7}')).toEqual({ pid: 7 });
    for (const bad of ['', '0', '-3', 'abc', '{"pid":0}', '{"pid":1.5}', '{}', 'null', '[1]']) expect(parseLock(bad), bad).toBeNull();
  });

  it.runIf(hasProc)('reads a start time from /proc even when the command name holds spaces and parentheses', async () => {
    const { mkdirSync, copyFileSync, chmodSync } = await import('node:fs');
    const odd = join(dir, 'a b) (c');
    mkdirSync(odd);
    const sleep = join(odd, 'x) y');
    copyFileSync(existsSync('/bin/sleep') ? '/bin/sleep' : '/usr/bin/sleep', sleep);
    chmodSync(sleep, 0o755);
    const child = spawn(sleep, ['5'], { stdio: 'ignore' });
    try {
      await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
      const stat = procStat(child.pid!);
      expect(stat?.state).toMatch(/^[RSD]$/);
      expect(stat?.startTime).toMatch(/^\d+$/);
      expect(isHeld({ pid: child.pid!, startTime: stat!.startTime, bootId: currentBootId() })).toBe(true);
      expect(isHeld({ pid: child.pid!, startTime: '1', bootId: currentBootId() })).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite does not lock its folder, and two processes on one folder corrupt it: hold a lock file naming
 * this process, and refuse to start while a live process holds it.
 *
 * A pid alone is not enough: after a kill -9 (or a power cut) the stale lock's pid may belong to another
 * process by the next start. So the lock records, where Linux's /proc tells them, the holder's start time
 * (field 22 of /proc/<pid>/stat, in clock ticks since boot) and the boot id. The lock is stale when its
 * pid is dead, or alive but started at another time, or when it was written before the last reboot.
 * Without /proc (other systems), or for a lock of the old format (a bare pid), only the pid is checked.
 */

export interface LockOwner {
  pid: number;
  /** /proc/<pid>/stat field 22; absent without /proc */
  startTime?: string;
  /** /proc/sys/kernel/random/boot_id; absent without /proc */
  bootId?: string;
}

export const LOCK_FILE = 'console.lock';

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

export function currentBootId(): string | undefined {
  return readProc('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
}

interface ProcStat {
  state: string;
  startTime: string;
}

/** State and start time of a process from /proc/<pid>/stat; undefined when it cannot be read. */
export function procStat(pid: number): ProcStat | undefined {
  const text = readProc(`/proc/${pid}/stat`);
  if (!text) return undefined;
  // "pid (comm) state ppid … starttime …": comm may hold spaces and parentheses, so split after its last ')'
  const fields = text.slice(text.lastIndexOf(')') + 2).trim().split(/\s+/);
  // fields[0] is field 3 (state), so field 22 (starttime) is fields[19]
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime && /^\d+$/.test(startTime) ? { state, startTime } : undefined;
}

/** This process as a lock records it. */
export function selfOwner(): LockOwner {
  const stat = procStat(process.pid);
  const bootId = currentBootId();
  return { pid: process.pid, ...(stat ? { startTime: stat.startTime } : {}), ...(bootId ? { bootId } : {}) };
}

/** The lock file's owner: JSON `{ pid, startTime, bootId }`, or the old format (a bare pid); null if unreadable. */
export function parseLock(text: string): LockOwner | null {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) > 0 ? { pid: Number(trimmed) } : null;
  try {
    const v = JSON.parse(trimmed) as Partial<Record<keyof LockOwner, unknown>>;
    if (typeof v.pid !== 'number' || !Number.isSafeInteger(v.pid) || v.pid <= 0) return null;
    return {
      pid: v.pid,
      ...(typeof v.startTime === 'string' ? { startTime: v.startTime } : {}),
      ...(typeof v.bootId === 'string' ? { bootId: v.bootId } : {}),
    };
  } catch {
    return null;
  }
}

/** whether a process of this pid runs (one of another user's counts) */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process the lock names still runs (and is the one that wrote it, as far as can be told). */
export function isHeld(owner: LockOwner): boolean {
  if (owner.bootId) {
    const boot = currentBootId();
    // written before a reboot: every process of that boot is gone
    if (boot && boot !== owner.bootId) return false;
  }
  if (!isAlive(owner.pid)) return false;
  const stat = procStat(owner.pid);
  if (!stat) return true; // no /proc, or not readable: the pid is all there is to go on
  if (stat.state === 'Z' || stat.state === 'X') return false; // exited, not yet reaped
  // the pid now belongs to a process started at another time than the lock's writer
  if (owner.startTime && owner.startTime !== stat.startTime) return false;
  return true;
}

/** Creates the lock file only if there is none; false if there is one. */
function createExclusive(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the data folder's lock, or throws when a live process holds it. A stale lock (see above), or
 * one of this process, is replaced. Returns the release, which removes the lock if it is still ours.
 */
export function acquireLock(dir: string): () => void {
  const file = join(dir, LOCK_FILE);
  const me = selfOwner();
  const content = JSON.stringify(me);
  const release = () => {
    try {
      if (parseLock(readFileSync(file, 'utf8'))?.pid === process.pid) rmSync(file);
    } catch {
      /* already gone */
    }
  };
  for (let attempt = 0; attempt < 10; attempt++) {
    if (createExclusive(file, content)) return release;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile: try again
      throw e;
    }
    const owner = parseLock(text);
    // an empty file: a process writing it right now (give it a moment), or one that died doing so
    if (!owner && text.trim() === '' && attempt < 5) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      continue;
    }
    if (owner && owner.pid !== process.pid && isHeld(owner)) {
      throw new Error(`the data folder ${dir} is in use by process ${owner.pid}; stop it first or use another DATA_DIR`);
    }
    rmSync(file, { force: true }); // stale, unreadable or our own: replace it
  }
  throw new Error(`cannot take the lock ${file}: it keeps changing`);
}

import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type MinorGc = (options: { type: 'minor'; execution: 'sync' }) => void;

/** the share of the interval the event loop may have been busy for it to count as idle */
const IDLE_UTILIZATION = 0.1;

/**
 * Gives the young generation back once the server is idle. V8 grows it to its ceiling (2 × 16 MB semi-spaces)
 * under the start's allocations and shrinks it only at a garbage collection that finds allocation slow; an idle
 * server makes no collection at all, so those 30-odd MB stayed resident for good (bench/RESULTS.md, "The
 * embedded database's idle memory"). Every `everyMs`, when the event loop was busy less than a tenth of that time,
 * a scavenge gives V8 that chance; whether to shrink stays V8's own rule (allocation under about 1 MB/s). A busy
 * server is left alone: its own scavenges run many times a second. The timer keeps no process alive. Returns what
 * stops it.
 */
export function shrinkYoungGenerationWhenIdle(everyMs = 10_000): () => void {
  // the collector is reachable only through --expose-gc; enabled for the one context made here, then off again,
  // so no global `gc` appears anywhere else
  setFlagsFromString('--expose-gc');
  let gc: MinorGc;
  try {
    gc = runInNewContext('gc') as MinorGc;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy < IDLE_UTILIZATION) gc({ type: 'minor', execution: 'sync' });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

import { type SQL, sql } from 'drizzle-orm';
/**
 * Snowflake ids: 41 bits of milliseconds since 2020-01-01, 10 bits of worker id, 12 bits of sequence.
 * Sortable by creation time and unique across instances with distinct worker ids.
 */
const EPOCH = 1577836800000n;
let workerId = 0n;
let lastMs = -1n;
let seq = 0n;

export function setWorkerId(id: number): void {
  workerId = BigInt(id & 1023);
}

export function nextId(): string {
  let now = BigInt(Date.now());
  if (now < lastMs) now = lastMs; // clock went back: keep monotonic
  if (now === lastMs) {
    seq = (seq + 1n) & 4095n;
    if (seq === 0n) now = lastMs + 1n; // sequence exhausted in this millisecond: borrow the next one
  } else {
    seq = 0n;
  }
  lastMs = now;
  return (((now - EPOCH) << 22n) | (workerId << 12n) | seq).toString();
}

/** A 64-bit id in its decimal text form (the wire form of every id). */
export { isIdText as isId } from '@console/contract';

/** The items of a comma-joined list column (role_id, dept_id, grant types…), trimmed, blanks dropped. */
export function splitList(list: string | null | undefined): string[] {
  return (list ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** `n` consecutive ids of this worker, taken at once (a batch's devices, written by one INSERT … SELECT). */
export interface IdBlock {
  /** milliseconds since the epoch of the block's first id */
  ms: bigint;
  worker: bigint;
}

/**
 * Reserves `n` ids: the whole sequence of each millisecond from now on, for ⌈n / 4096⌉ milliseconds;
 * `nextId` then continues after the block. The i-th id (0-based) is
 * `((ms + i / 4096) << 22) | (worker << 12) | (i % 4096)` (in SQL, for an INSERT … SELECT).
 */
export function reserveIdBlock(n: number): IdBlock {
  let now = BigInt(Date.now());
  if (now <= lastMs) now = lastMs + 1n;
  const span = BigInt(Math.max(1, Math.ceil(n / 4096)));
  lastMs = now + span - 1n;
  seq = 4095n;
  return { ms: now - EPOCH, worker: workerId };
}

/**
 * The ids of an INSERT … SELECT of at most `n` rows: a reserved block (`reserveIdBlock`), the i-th row's id
 * computed in SQL from its 0-based index (`row_number() over () - 1`, by default).
 */
export function idBlockSql(n: number, index: SQL = sql`(row_number() over () - 1)`): SQL {
  const block = reserveIdBlock(n);
  return sql`(((${block.ms}::bigint + ${index} / 4096) << 22) | (${block.worker}::bigint << 12) | (${index} % 4096))`;
}

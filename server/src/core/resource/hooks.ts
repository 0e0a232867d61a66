import type { DynamicColumn, Lang } from '@console/contract';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuthUser } from '../context.js';
import type { Executor } from '../db/index.js';

type Row = Record<string, unknown>;

export interface SaveContext {
  mode: 'create' | 'update';
  user: AuthUser;
  lang: Lang;
  /** the row as stored before an update (absent on create) */
  stored?: Row;
  /** work to do once the transaction committed */
  afterCommit(fn: () => Promise<void> | void): void;
  /**
   * work to do once the transaction committed, run once over every item collected under `key` in this call: an
   * import's rows get one pass (one lookup, one write) instead of one per row
   */
  afterCommitWith<T>(key: string, item: T, fn: (items: T[]) => Promise<void> | void): void;
  /** the record already passed `checkRows` (an import checks its rows by chunks): lookups made there may be skipped */
  checked?: boolean;
  /** the record is a row of an imported sheet (a device area's source says so) */
  imported?: boolean;
  /** what `prepare` answered */
  prepared?: unknown;
  /** values answered beside the saved record in this call's answer only (a generated secret); keys from `hooks.revealed` */
  reveal(values: Row): void;
  /**
   * the warnings the caller already saw and accepted (`?confirm=code,…`): a hook that would warn throws
   * `confirmFirst(code, …)` unless its code is here
   */
  confirmed: ReadonlySet<string>;
}

export interface RemoveContext {
  user: AuthUser;
  lang: Lang;
  afterCommit(fn: () => Promise<void> | void): void;
}

export interface ResourceHooks {
  /**
   * runs after validation, before the write transaction opens: slow work that needs no row (hashing a
   * password) stays out of the transaction
   */
  prepare?: (values: Row, c: { mode: 'create' | 'update'; user: AuthUser; lang: Lang }) => Promise<unknown>;
  /**
   * runs inside the write transaction before insert/update, after validation and reference checks; may
   * change `values` (hash a password, derive a column) or throw an AppError
   */
  beforeSave?: (tx: Executor, values: Row, c: SaveContext) => Promise<void>;
  /** runs inside the write transaction after the row was written */
  afterSave?: (tx: Executor, saved: Row, c: SaveContext) => Promise<void>;
  /**
   * an import's `afterSave` for a chunk of created rows at once (one statement for the chunk, where `afterSave`
   * would make one a row): when present, an import writes its new rows in bulk and calls this instead of
   * `afterSave` for them; rows it covers (updates) still go through `afterSave`
   */
  afterCreateRows?: (tx: Executor, saved: Row[], c: SaveContext) => Promise<void>;
  /** runs inside the transaction before the rows are soft-deleted; may refuse */
  beforeRemove?: (tx: Executor, rows: Row[], c: RemoveContext) => Promise<void>;
  /**
   * how this resource's rows let go of a removed row their field names, where the field's `onRemove` is `cascade`
   * or `detach` and clearing the field (or removing the rows) is not all of it: a certificate goes back to free
   */
  releases?: Record<string, (tx: Executor, ids: string[], user: AuthUser) => Promise<void>>;
  /** runs inside the transaction after the rows were soft-deleted */
  afterRemove?: (tx: Executor, ids: string[], user: AuthUser) => Promise<void>;
  /**
   * a data scope: a condition added to every read and write of the caller (lists, detail, update,
   * remove), e.g. "rows of my department"; undefined for no restriction
   */
  scope?: (tx: Executor, user: AuthUser) => Promise<SQL | undefined>;
  /**
   * rewrites, in place, the rows a list, detail or export read for the caller, before they are answered (inside
   * the read's transaction, once per page or chunk): what a tenant may see of a platform row (an OTA task's counts
   * of its own devices), a text kept as a message in the reader's language; rows may carry only some columns (an
   * export reads those it writes, and `shownReads`)
   */
  shown?: (tx: Executor, rows: Row[], user: AuthUser, lang: Lang) => Promise<void>;
  /** the columns `shown` reads beyond the fields written (an export reads only those and these) */
  shownReads?: string[];
  /**
   * every field `shown` writes as an SQL expression of the row (its text, null for none), for an export presented
   * by PostgreSQL (`io/exportCopy.ts`); without it, a resource with `shown` is exported row by row
   */
  shownSql?: Record<string, SQL>;
  /** rows the `tree` and `lazy-tree` calls show (the menu tree shows menus, not buttons) */
  treeFilter?: () => SQL;
  /** other paths that answer as `list` (BladeX's `user/page`), with query parameters of their own */
  listAliases?: string[];
  /** list parameters beyond the fields' filters: each turns its value into a condition (`page?deptId=`) */
  listParams?: Record<string, (tx: Executor, user: AuthUser, value: string, lang: Lang) => Promise<SQL>>;
  /**
   * the resource's own rules over one submitted record, on its input as parsed (secrets still in clear, before
   * they are sealed): field → message for what is wrong (submit answers 400, an import reports the row), and
   * values derived from it (a certificate's fingerprint and expiry) written with the record
   */
  inspect?: (input: Row, c: { mode: 'create' | 'update'; lang: Lang }) => { errors?: Record<string, string>; values?: Row };
  /**
   * the resource's own rules against the database, for a chunk of records an import is about to write (one
   * statement for many rows): per record, field → message, or undefined when it is fine
   */
  checkRows?: (tx: Executor, rows: Row[], lang: Lang, user: AuthUser) => Promise<Array<Record<string, string> | undefined>>;
  /**
   * the resource's dynamic columns (`def.dynamicColumns`) for the list's filters named in its `by`, e.g. the
   * attributes of a batch's product type: the export adds them after the fields
   */
  dynamicColumns?: (tx: Executor, user: AuthUser, filters: Record<string, string>, lang: Lang) => Promise<DynamicColumn[]>;
  /**
   * what an export of these filters holds, to name its file (a task's name, a batch number); the definition's
   * title when absent or when it answers undefined
   */
  exportName?: (tx: Executor, user: AuthUser, filters: Record<string, unknown>, lang: Lang) => Promise<string | undefined>;
  /** keys a submit may answer beside the record, once (`SaveContext.reveal`): documented, absent otherwise */
  revealed?: Record<string, z.ZodType>;
}

/**
 * Drops what a caller sent for fields the server alone writes (a state moved by actions, a time it stamps): a
 * submit accepts every declared field, so a hook whose resource has such fields drops them before it sets its own.
 */
export function dropServerFields(values: Record<string, unknown>, names: readonly string[]): void {
  for (const name of names) delete values[name];
}

import { badAmountMessage, type FieldDef, type Lang, moneyCurrency, msg, parseMoney, t } from '@console/contract';
import { and, eq, getTableName } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthUser } from '../../context.js';
import { inList } from '../../db/bulk.js';
import { copyRows } from '../../db/copy.js';
import { allowLongStatements, type Executor } from '../../db/index.js';
import { rowColumns } from '../../db/columns.js';
import { AppError, notFound } from '../../errors.js';
import { SealWorker } from '../../sealWorker.js';
import { afterCommitQueue } from '../afterCommit.js';
import type { SaveContext } from '../hooks.js';
import { runAs, scopeIn, visible } from '../mount/access.js';
import type { ResourceMount } from '../mount/resourceMount.js';
import { columnValues, newRow } from '../mount/rows.js';
import { validateSubmit } from '../mount/validate.js';
import { isId } from '../../ids.js';
import { checkReferences, idsByName } from '../refs.js';
import type { ImportBundle } from './bundle.js';
import { cellText } from './cells.js';
import {
  dictValues, IMPORT_MAX_ROWS, IMPORT_TRANSACTION_MS, type ImportSpec, isEmptyCell, JOB_TTL_SECONDS, type JobState, jobKey,
  MAX_REPORTED_ERRORS, PROGRESS_EVERY, refusalText,
} from './import.js';
import type { SheetRow } from './sheet.js';

type Row = Record<string, unknown>;

/** the parts of a reference cell: one id or name, or a comma-joined list of them */
const referenceParts = (text: string): string[] => text.split(',').map((p) => p.trim()).filter(Boolean);

/**
 * rows checked against the table (uniqueness, references) per statement, and written together (one COPY): few
 * round trips, each chunk written while the next is read and checked in memory
 */
export const CHECK_CHUNK = 5000;

interface Checked {
  row: number;
  values: Row;
  target?: string;
  prepared?: unknown;
  /** its secrets being sealed (in the worker), or sealed */
  sealed?: Promise<void>;
}
/** a cell of a .zip's sheet naming a file of the zip: the file's text, or why it cannot be read */
type BundledText = { text: string; error?: undefined } | { text?: undefined; error: string };
/** rows checked between two turns of the event loop */
const YIELD_EVERY = 100;
/** chunks read and checked in memory that may wait for the writer: the reading runs ahead of the database */
const QUEUED_CHUNKS = 2;

/** chunks handed from the reader to the writer: the reader waits while `depth` wait, the writer while none does */
class ChunkQueue<T> {
  private readonly items: T[] = [];
  private closed = false;
  private failure: { error: unknown } | undefined;
  private wakeReader: (() => void) | undefined;
  private wakeWriter: (() => void) | undefined;

  constructor(private readonly depth: number) {}

  async put(item: T): Promise<void> {
    while (this.items.length >= this.depth && !this.failure) await new Promise<void>((resolve) => (this.wakeReader = resolve));
    if (this.failure) throw this.failure.error;
    this.items.push(item);
    this.wake('writer');
  }

  /** the next chunk; undefined once the reading is over and every chunk taken */
  async take(): Promise<T | undefined> {
    while (this.items.length === 0 && !this.closed) await new Promise<void>((resolve) => (this.wakeWriter = resolve));
    const item = this.items.shift();
    this.wake('reader');
    return item;
  }

  /** the reading is over */
  close(): void {
    this.closed = true;
    this.wake('writer');
  }

  /** the reading failed: the chunks waiting are dropped */
  abort(): void {
    this.items.length = 0;
    this.close();
  }

  /** the writer stopped: the reader's next `put` throws its error */
  fail(error: unknown): void {
    this.failure = { error };
    this.wake('reader');
  }

  private wake(who: 'reader' | 'writer'): void {
    const wake = who === 'reader' ? this.wakeReader : this.wakeWriter;
    if (who === 'reader') this.wakeReader = undefined;
    else this.wakeWriter = undefined;
    wake?.();
  }
}

/** what the table already holds of a chunk's unique values: the rows they would repeat, or (covering) update */
interface UniqueFound {
  targets: Map<Checked, string>;
  duplicates: Array<[Checked, string]>;
}
/** thrown out of the job's transaction to take back what it wrote once a row turned out bad */
const ROLLBACK = Symbol('import rolled back');
/** a write the database refused (a race on a unique value, a hook's refusal): reported as the row being written */
class WriteFailure {
  constructor(readonly error: unknown) {}
}

/** what one import works on: its state (kept in the kv store), the file's rows after the header, and the caller */
export interface ImportInput {
  state: JobState;
  /** the rows read with the header row, then the rest of the file in batches */
  first: SheetRow[];
  rows: AsyncGenerator<SheetRow[]>;
  /** column index → field name */
  header: Map<number, string>;
  user: AuthUser;
  lang: Lang;
  /** update the rows matched by the unique field instead of refusing them */
  covering: boolean;
  bundle?: ImportBundle;
}

/**
 * One import: the rows are read and checked with `submit`'s own rules. Any bad row: nothing is written and the
 * job lists every bad row. No bad row: every row is written in one transaction.
 */
export class ImportJob {
  private readonly state: JobState;
  private readonly user: AuthUser;
  private readonly lang: Lang;
  private dicts = new Map<string, Map<string, string>>();
  /** reference names looked up so far: field → name → the ids of the rows of that name the caller sees */
  private readonly refNames = new Map<string, Map<string, string[]>>();
  private readonly seen: Map<string, Map<string, number>>;
  private now = new Date();
  private readonly later: Array<() => Promise<void> | void> = [];
  private readonly base: Omit<SaveContext, 'mode' | 'stored'>;
  /** the spreadsheet row being written (0: a statement of many rows) */
  private current = 0;
  /** the end of the transaction's last statement (the reader's reference lookups and the writer take turns) */
  private turn: Promise<void> = Promise.resolve();
  /** seals the rows' secrets beside the reading of the next rows (a resource with secret fields) */
  private sealer: SealWorker | undefined;
  /** the messages of the row being checked, and its fields whose values are refused for themselves */
  private readonly messages: string[] = [];
  private readonly wrongDict = new Set<string>();
  /** the file's columns read (index, field name, field), and those naming references: once, not per row */
  private readonly columns: Array<{ index: number; name: string; f: FieldDef }>;
  private readonly refColumns: Array<{ index: number; name: string; f: FieldDef }>;

  constructor(private readonly m: ResourceMount, private readonly spec: ImportSpec, private readonly log: FastifyBaseLogger, private readonly input: ImportInput) {
    this.state = input.state;
    this.user = input.user;
    this.lang = input.lang;
    this.seen = new Map(spec.uniqueFields.map((n) => [n, new Map<string, number>()]));
    this.columns = [...input.header].map(([index, name]) => ({ index, name, f: m.def.fields[name]! }));
    this.refColumns = this.columns.filter((c) => c.f.ref);
    this.base = {
      user: this.user, lang: this.lang, ...afterCommitQueue(this.later), imported: true,
      // an import answers no record: nothing is revealed
      reveal: () => undefined,
      // nobody answers a warning in the middle of an import: a row a hook warns about is reported, not written
      confirmed: new Set<string>(),
    };
  }

  private save() {
    return this.m.ctx.kv.set(jobKey(this.state.id), JSON.stringify(this.state), JOB_TTL_SECONDS);
  }

  private addError(row: number, message: string) {
    this.state.failed++;
    if (this.state.errors.length < MAX_REPORTED_ERRORS) this.state.errors.push({ row, message });
  }

  async run(): Promise<void> {
    this.dicts = await dictValues(this.m.ctx, this.spec.fields);
    this.now = new Date();
    if (this.spec.secretFields.length) this.sealer = new SealWorker(this.m.ctx.config.encryptionKey);
    try {
      const reported = this.m.hooks.prepare ? await this.checkAllThenWrite() : await this.checkAndWriteTogether();
      if (reported) return;
    } catch (thrown) {
      // anything but a refused write (an unreadable file) is the job's failure (the caller's)
      if (!(thrown instanceof WriteFailure)) throw thrown;
      await this.writeFailed(thrown.error);
      return;
    } finally {
      await this.sealer?.close();
    }
    for (const fn of this.later) await fn();
    this.m.ctx.upkeep.changed(getTableName(this.m.table), this.state.total);
    this.state.status = 'done';
    this.state.succeeded = this.state.total;
    await this.save();
  }

  /**
   * the hook's slow work (hashing a password) holds no transaction: every row is checked in short
   * transactions first, prepared outside any, then all are written in one; true when failures were reported
   */
  private async checkAllThenWrite(): Promise<boolean> {
    const { m, user, lang } = this;
    const good: Checked[] = [];
    await this.readRows(async (chunk, named) => {
      void this.sealChunk(chunk).catch(() => undefined);
      good.push(...await runAs(m, user, async (tx) => this.checkChunk(tx, [...chunk, ...await this.checkNamed(tx, named)])));
    });
    if (await this.reportFailures()) return true;
    await this.save();
    for (const c of good) c.prepared = await m.hooks.prepare!(c.values, { mode: c.target ? 'update' : 'create', user, lang });
    await runAs(m, user, async (tx) => {
      await allowLongStatements(tx, IMPORT_TRANSACTION_MS);
      for (let at = 0; at < good.length; at += CHECK_CHUNK) await this.writeChunk(tx, good.slice(at, at + CHECK_CHUNK));
    }).catch((e: unknown) => {
      throw new WriteFailure(e);
    });
    return false;
  }

  /**
   * one transaction: the file is read and its rows checked in memory up to `QUEUED_CHUNKS` chunks ahead of the
   * writer, which checks each chunk against the table and writes it; a bad row stops the writing (the rest is
   * still checked, for the report) and everything written is taken back; true when failures were reported
   */
  private async checkAndWriteTogether(): Promise<boolean> {
    const { state } = this;
    let failure: WriteFailure | undefined;
    await runAs(this.m, this.user, async (tx) => {
      await allowLongStatements(tx, IMPORT_TRANSACTION_MS);
      const queue = new ChunkQueue<{ rows: Checked[]; unique?: Promise<UniqueFound> }>(QUEUED_CHUNKS);
      const writer = (async () => {
        for (let chunk = await queue.take(); chunk; chunk = await queue.take()) {
          const { rows, unique } = chunk;
          const good = await this.inTurn(() => this.checkChunk(tx, rows, unique));
          if (state.failed === 0 && !failure && good.length) {
            await this.inTurn(() => this.writeChunk(tx, good)).catch((e: unknown) => {
              failure = new WriteFailure(e);
            });
          }
        }
      })();
      // a writer that stopped (a check the database refused) stops the reading too
      writer.catch((e: unknown) => queue.fail(e));
      let readFailure: { error: unknown } | undefined;
      try {
        await this.readRows(async (chunk, named) => {
          // the chunk's secrets are sealed in the worker while the chunks before it are written
          void this.sealChunk(chunk).catch(() => undefined);
          const rows = named.length ? [...chunk, ...await this.inTurn(() => this.checkNamed(tx, named))] : chunk;
          await queue.put({ rows, unique: this.uniqueAside(rows) });
        });
      } catch (e) {
        readFailure = { error: e };
        queue.abort();
      } finally {
        queue.close();
      }
      // no statement of the writer may outlive the transaction
      await writer.catch((e: unknown) => {
        if (!readFailure) throw e;
      });
      if (readFailure) throw readFailure.error;
      if (failure) throw failure;
      if (state.failed > 0 || state.total === 0) throw ROLLBACK;
    }).catch((e: unknown) => {
      if (e !== ROLLBACK) throw e;
    });
    return this.reportFailures();
  }

  /** runs `fn` once the transaction's statements issued before it are answered: one statement at a time */
  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.turn.then(fn);
    this.turn = run.then(() => undefined, () => undefined);
    return run;
  }

  /** a refused write fails the whole job, naming the row being written */
  private async writeFailed(e: unknown): Promise<void> {
    const { state, lang } = this;
    const detail = e instanceof AppError ? (Object.values(e.data ?? {}).join('; ') || e.message_(lang)) : msg('valueInvalid', lang);
    if (!(e instanceof AppError)) this.log.warn({ err: e }, `import into ${this.m.def.code} failed`);
    state.status = 'failed';
    state.succeeded = 0;
    state.failed = this.current ? 1 : state.total;
    state.errors = [{ row: this.current, message: msg('importWriteFailed', lang, { detail }) }];
    await this.save();
  }

  /**
   * the rows whose unique values the table already holds, each with its message, and (covering) the row each one
   * updates: one statement per unique field
   */
  private async uniqueInTable(tx: Executor, chunk: Checked[]): Promise<UniqueFound> {
    const { m, lang } = this;
    const found: UniqueFound = { targets: new Map(), duplicates: [] };
    for (const name of this.spec.uniqueFields) {
      const col = m.columns[name]!;
      const values = [...new Set(chunk.map((c) => c.values[name]).filter((v) => v !== undefined && v !== null))];
      if (values.length === 0) continue;
      const hits = await tx.select({ id: m.columns.id!, value: col }).from(m.table).where(and(...visible(m, this.user), inList(col, values)));
      const owner = new Map(hits.map((h) => [String(h.value), String(h.id)]));
      const label = t(m.def.fields[name]!.label, lang);
      for (const c of chunk) {
        const v = c.values[name];
        const hit = v === undefined || v === null ? undefined : owner.get(String(v));
        if (!hit) continue;
        if (this.input.covering && name === this.spec.coverField) found.targets.set(c, hit);
        else if (hit !== found.targets.get(c)) found.duplicates.push([c, msg('duplicate', lang, { field: label, value: String(v) })]);
      }
    }
    return found;
  }

  /**
   * `uniqueInTable` on a connection of its own (PostgreSQL), as the importing user, while the import's transaction
   * writes the chunks before. Only where the import's own uncommitted rows could tell it nothing more: rows only
   * inserted (not covering), with the values checked (no hook or tree that changes them before the write), whose
   * unique values were all compared among themselves in memory
   */
  private uniqueAside(chunk: Checked[]): Promise<UniqueFound> | undefined {
    const { m } = this;
    if (m.ctx.dbKind !== 'postgres' || this.spec.uniqueFields.length === 0 || chunk.length === 0) return undefined;
    if (this.input.covering || m.hooks.beforeSave || m.tree) return undefined;
    const found = runAs(this.m, this.user, async (tx) => {
      await allowLongStatements(tx, IMPORT_TRANSACTION_MS);
      return this.uniqueInTable(tx, chunk);
    });
    found.catch(() => undefined);
    return found;
  }

  /** flags the rows naming references the caller cannot see: one check for the chunk, then row by row if it fails */
  private async checkChunkReferences(tx: Executor, chunk: Checked[], flag: (c: Checked, text: string) => void): Promise<void> {
    const { m, user, lang } = this;
    const { refFields } = this.spec;
    const merged: Row = {};
    for (const name of refFields) {
      const ids = new Set(chunk.flatMap((c) => (c.values[name] === undefined || c.values[name] === null ? [] : String(c.values[name]).split(','))).filter(Boolean));
      if (ids.size) merged[name] = [...ids].join(',');
    }
    const allFound = await checkReferences(tx, m.ctx.resources, m.def, merged, user, lang).then(() => true, (e: unknown) => { refusalText(e, lang); return false; });
    if (!allFound) {
      for (const c of chunk) {
        const own = Object.fromEntries(refFields.filter((n) => n in c.values).map((n) => [n, c.values[n]]));
        await checkReferences(tx, m.ctx.resources, m.def, own, user, lang).catch((e: unknown) => flag(c, refusalText(e, lang)));
      }
    }
  }

  /**
   * uniqueness against the table (`unique`: already under way aside) and references, for a chunk of rows, one
   * statement per field: answers the good rows
   */
  private async checkChunk(tx: Executor, chunk: Checked[], unique?: Promise<UniqueFound>): Promise<Checked[]> {
    if (chunk.length === 0) return [];
    const { m } = this;
    const bad = new Map<number, string[]>();
    const flag = (c: Checked, text: string) => bad.set(c.row, [...(bad.get(c.row) ?? []), text]);
    const sealing = this.sealChunk(chunk);
    sealing.catch(() => undefined);
    const found = await (unique ?? this.uniqueInTable(tx, chunk));
    for (const [c, target] of found.targets) c.target = target;
    for (const [c, text] of found.duplicates) flag(c, text);
    // no hook sees a secret in clear: checkRows, prepare, beforeSave get the rows sealed, as from submit
    await sealing;
    if (m.hooks.checkRows) {
      const verdicts = await m.hooks.checkRows(tx, chunk.map((c) => c.values), this.lang, this.user);
      chunk.forEach((c, i) => {
        const errors = verdicts[i];
        if (errors) for (const text of Object.values(errors)) flag(c, text);
      });
    }
    if (this.spec.refFields.length) await this.checkChunkReferences(tx, chunk, flag);
    const good: Checked[] = [];
    for (const c of chunk) {
      const errors = bad.get(c.row);
      if (errors) this.addError(c.row, errors.join('; '));
      else good.push(c);
    }
    this.state.processed += chunk.length;
    return good;
  }

  /**
   * seals the secrets of the chunk's rows not being sealed yet, in one message to the worker; resolves once every
   * row of the chunk is sealed
   */
  private sealChunk(chunk: Checked[]): Promise<void> {
    const { sealer } = this;
    if (!sealer) return Promise.resolve();
    const plains: string[] = [];
    const slots: Array<[Row, string]> = [];
    const fresh = chunk.filter((c) => !c.sealed);
    for (const c of fresh) {
      for (const name of this.spec.secretFields) {
        const v = c.values[name];
        if (typeof v !== 'string') continue;
        plains.push(v);
        slots.push([c.values, name]);
      }
    }
    if (fresh.length) {
      const sealed = sealer.seal(plains).then((out) => {
        slots.forEach(([values, name], i) => {
          values[name] = out[i];
        });
      });
      for (const c of fresh) c.sealed = sealed;
    }
    return Promise.all(new Set(chunk.map((c) => c.sealed!))).then(() => undefined);
  }

  /** writes checked rows: new ones in one statement (or, for a hook that reads each saved row, a multi-row insert), covered ones one by one */
  private async writeChunk(tx: Executor, chunk: Checked[]): Promise<void> {
    const { m, user, lang, base, now, state } = this;
    const fresh: Row[] = [];
    // without a tree or a beforeSave hook the chunk's rows are made without yielding: an `await` a row let the
    // reading of the next chunk run in between, and the COPY started a chunk's reading later
    const perRow = m.tree !== undefined || m.hooks.beforeSave !== undefined;
    for (const c of chunk) {
      this.current = c.row;
      if (c.target) await this.coverRow(tx, c);
      else {
        const row = newRow(m, c.values, user, now);
        if (perRow) {
          if (m.tree) await m.tree.onCreate(tx, visible(m, user), row, lang);
          await m.hooks.beforeSave?.(tx, row, { ...base, mode: 'create', prepared: c.prepared, checked: !!m.hooks.checkRows });
        }
        fresh.push(row);
      }
    }
    this.current = 0;
    if (fresh.length) await copyRows(tx, m.table, fresh);
    if (fresh.length && m.hooks.afterCreateRows) {
      await m.hooks.afterCreateRows(tx, fresh, { ...base, mode: 'create', checked: !!m.hooks.checkRows });
    } else if (fresh.length && m.hooks.afterSave) {
      // each saved row as the table holds it (defaults, generated columns), in the file's order
      const saved = new Map((await tx.select().from(m.table).where(inList(m.columns.id!, fresh.map((r) => r.id))) as Row[]).map((r) => [String(r.id), r]));
      for (const row of fresh) {
        const stored = saved.get(String(row.id));
        if (!stored) throw new Error(`import into ${m.def.code}: a row just written (${String(row.id)}) cannot be read back`);
        await m.hooks.afterSave(tx, stored, { ...base, mode: 'create', checked: !!m.hooks.checkRows });
      }
    }
    state.succeeded += chunk.length;
    this.log.debug({ job: state.id, resource: m.def.code, written: state.succeeded }, 'import writing');
    await this.save();
  }

  /** isCovering: the row named by the unique field takes the file's values, as an update by `submit` would */
  private async coverRow(tx: Executor, c: Checked): Promise<void> {
    const { m, base, now } = this;
    const idCol = m.columns.id!;
    const scoped = await scopeIn(m, tx, base.user);
    const [stored] = await tx.select(rowColumns(m.table)).from(m.table).where(and(eq(idCol, c.target!), ...scoped)) as Row[];
    if (!stored) throw notFound();
    const changes: Row = { ...c.values, updateUser: base.user.userId, updateTime: now };
    const move = m.tree ? await m.tree.onUpdate(tx, visible(m, base.user), stored, changes, base.lang) : undefined;
    const ctxOf: SaveContext = { ...base, mode: 'update', stored, prepared: c.prepared };
    await m.hooks.beforeSave?.(tx, changes, ctxOf);
    const [updated] = await tx.update(m.table).set(columnValues(m, changes) as never).where(and(eq(idCol, c.target!), ...scoped)).returning();
    if (!updated) throw notFound();
    await move?.();
    await m.hooks.afterSave?.(tx, updated as Row, ctxOf);
  }

  /**
   * reads the file, each row checked on its own (submit's rules); every `CHECK_CHUNK` rows go to `flush`: those
   * checked, and those naming a reference by a name not looked up yet (checked there, once the chunk's names are)
   */
  private async readRows(flush: (chunk: Checked[], named: SheetRow[]) => Promise<void>): Promise<void> {
    const { state, lang } = this;
    let pending: Checked[] = [];
    let named: SheetRow[] = [];
    const { first, rows } = this.input;
    for (let batch = first, next = await rows.next(); ; batch = next.value, next = await rows.next()) {
      for (const { row, cells } of batch) {
        if (cells.every(isEmptyCell)) continue;
        state.total++;
        if (state.total > IMPORT_MAX_ROWS) {
          state.total--;
          state.failed = 1;
          state.errors = [{ row, message: msg('importTooManyRows', lang, { max: IMPORT_MAX_ROWS }) }];
          return;
        }
        if (this.refColumns.length && this.unknownNames(cells).length) named.push({ row, cells });
        else {
          const checking = this.checkRow(row, cells);
          const checked = checking instanceof Promise ? await checking : checking;
          if (checked) pending.push(checked);
        }
        if (pending.length + named.length >= CHECK_CHUNK) {
          await flush(pending, named);
          pending = [];
          named = [];
        }
        if (state.total % PROGRESS_EVERY === 0) await this.save();
        // the rows are checked synchronously: now and then the event loop gets a turn, so that the writer's
        // answers from the database (and the COPY's data, as the socket drains) are not held up behind a batch
        if (state.total % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      if (next.done) break;
    }
    await flush(pending, named);
  }

  /** the reference names of a row's cells not looked up yet: [field, name] */
  private unknownNames(cells: SheetRow['cells']): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (const { index, name, f } of this.refColumns) {
      const text = cellText(cells[index], f);
      if (text === undefined) continue;
      const known = this.refNames.get(name);
      for (const part of referenceParts(text)) if (!isId(part) && !known?.has(part)) out.push([name, part]);
    }
    return out;
  }

  /** the rows naming references by new names: the names looked up (one query per field), then each row checked */
  private async checkNamed(tx: Executor, rows: SheetRow[]): Promise<Checked[]> {
    const wanted = new Map<string, Set<string>>();
    for (const { cells } of rows) {
      for (const [field, name] of this.unknownNames(cells)) wanted.set(field, (wanted.get(field) ?? new Set()).add(name));
    }
    for (const [field, names] of wanted) {
      const found = await idsByName(tx, this.m.ctx.resources, this.m.def.fields[field]!.ref!, [...names], this.user);
      let known = this.refNames.get(field);
      if (!known) this.refNames.set(field, (known = new Map()));
      for (const name of names) known.set(name, found.get(name) ?? []);
    }
    const out: Checked[] = [];
    for (const { row, cells } of rows) {
      const checking = this.checkRow(row, cells);
      const checked = checking instanceof Promise ? await checking : checking;
      if (checked) out.push(checked);
    }
    return out;
  }

  /**
   * one row of the file checked on its own: its values, or undefined once its errors are reported; a .zip's cells
   * may name its files, read asynchronously first, any other row is checked without a promise (a 100,000-row
   * import made 100,000 of them, each seen by the async hooks)
   */
  private checkRow(row: number, cells: SheetRow['cells']): Checked | undefined | Promise<Checked | undefined> {
    const { bundle } = this.input;
    return bundle ? this.bundledTexts(cells, bundle).then((files) => this.checkCells(row, cells, files)) : this.checkCells(row, cells);
  }

  private checkCells(row: number, cells: SheetRow['cells'], bundled?: Map<number, BundledText>): Checked | undefined {
    // one array and one set for every row (used only while the row is checked): garbage a row was the import's GC
    const { messages, wrongDict } = this;
    messages.length = 0;
    wrongDict.clear();
    const body = this.bodyOf(cells, messages, wrongDict, bundled);
    let values: Row | undefined;
    try {
      values = validateSubmit(this.m, body, 'create', this.lang, { unsealed: this.sealer !== undefined }).values;
    } catch (e) {
      const text = refusalText(e, this.lang, wrongDict);
      if (text) messages.push(text);
    }
    if (values) this.checkDuplicatesInFile(values, row, messages);
    if (messages.length || !values) {
      this.addError(row, messages.join('; '));
      this.state.processed++;
      return undefined;
    }
    return { row, values };
  }

  /** the text cells of a .zip's sheet that name a file of the zip: the file's text (or why it cannot be read), by column */
  private async bundledTexts(cells: SheetRow['cells'], bundle: ImportBundle): Promise<Map<number, BundledText>> {
    const out = new Map<number, BundledText>();
    for (const { index, f } of this.columns) {
      if (f.type !== 'string' && f.type !== 'text') continue;
      const text = cellText(cells[index], f);
      if (text === undefined) continue;
      try {
        out.set(index, { text: (await bundle.resolve(text))?.trim() ?? text });
      } catch (e) {
        out.set(index, { error: refusalText(e, this.lang) });
      }
    }
    return out;
  }

  /** a row's cells as a submit body: a .zip's file names resolved (`bundled`), dictionary values as their keys */
  private bodyOf(cells: SheetRow['cells'], messages: string[], wrongDict: Set<string>, bundled?: Map<number, BundledText>): Row {
    const { lang } = this;
    const body: Row = {};
    for (const { index, name, f } of this.columns) {
      let text = cellText(cells[index], f);
      if (text === undefined) continue;
      // a cell of a .zip's sheet may name a file of the zip: its text is the value
      const file = bundled?.get(index);
      if (file?.error !== undefined) {
        messages.push(file.error);
        continue;
      }
      if (file) text = file.text;
      const dict = this.dicts.get(name);
      if (f.ref && referenceParts(text).some((part) => !isId(part))) {
        // a reference named as an export writes it: each name stands for the one row of that name the caller sees
        const ids: string[] = [];
        for (const part of referenceParts(text)) {
          const found = isId(part) ? [part] : this.refNames.get(name)?.get(part) ?? [];
          if (found.length === 1) ids.push(found[0]!);
          else messages.push(msg(found.length ? 'importAmbiguousName' : 'importUnknownValue', lang, { field: t(f.label, lang), value: part }));
        }
        if (ids.length < referenceParts(text).length) {
          wrongDict.add(name);
          continue;
        }
        body[name] = ids.join(',');
      } else if (dict) {
        const key = dict.get(text.toLowerCase());
        if (key === undefined) {
          messages.push(msg('importUnknownValue', lang, { field: t(f.label, lang), value: text }));
          wrongDict.add(name);
          continue;
        }
        body[name] = key;
      } else {
        body[name] = text;
      }
    }
    this.moneyValues(body, messages, wrongDict);
    return body;
  }

  /**
   * a `money` cell holds major units (`19.9`, `'19.90'`; a numeric cell as the shortest decimal text of its number):
   * its minor units in the row's currency, digit by digit (parseMoney), never through a float; a text that is not
   * exactly an amount of that currency (19.999 in CNY, a sign, an exponent) is the row's error
   */
  private moneyValues(body: Row, messages: string[], wrongDict: Set<string>): void {
    const { lang } = this;
    for (const [name, f] of this.spec.moneyFields) {
      const text = body[name];
      if (typeof text !== 'string') continue;
      // a currency the row names wrongly is reported for itself; the amount is not read in another one
      const currencyRefused = f.currency !== undefined && wrongDict.has(f.currency);
      const currency = moneyCurrency(f, body);
      const minor = currencyRefused ? undefined : parseMoney(text, currency);
      if (minor === undefined) {
        if (!currencyRefused) messages.push(badAmountMessage(t(f.label, lang), currency, lang));
        wrongDict.add(name);
        delete body[name];
      } else {
        body[name] = minor;
      }
    }
  }

  /** a unique value met earlier in the file names that row */
  private checkDuplicatesInFile(values: Row, row: number, messages: string[]): void {
    for (const name of this.spec.uniqueFields) {
      const v = values[name];
      if (v === undefined || v === null) continue;
      const first = this.seen.get(name)!.get(String(v));
      if (first !== undefined) messages.push(msg('importDuplicateInFile', this.lang, { field: t(this.m.def.fields[name]!.label, this.lang), value: String(v), row: first }));
      else this.seen.get(name)!.set(String(v), row);
    }
  }

  /** after reading: a file without rows or with bad ones is reported (true), nothing written */
  private async reportFailures(): Promise<boolean> {
    const { state, lang } = this;
    if (state.total === 0) this.addError(1, msg('importNoRows', lang));
    if (state.failed === 0) return false;
    state.errors.sort((a, b) => a.row - b.row);
    if (state.failed > state.errors.length) state.errors.push({ row: 0, message: msg('importTooManyErrors', lang, { max: MAX_REPORTED_ERRORS }) });
    state.status = 'failed';
    state.succeeded = 0;
    await this.save();
    return true;
  }
}

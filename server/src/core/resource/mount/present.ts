import { dictKeyOf, dictNameKey, type FieldDef, type Lang, SECRET_MASK } from '@console/contract';
import type { AppContext, AuthUser } from '../../context.js';
import { inTenant } from '../../db/index.js';
import { formatDateTime } from '../../time.js';
import { loadReferenceNames, type ReferenceNames, unnamedReferences, writeReferenceNames } from '../refs.js';
import type { MountedResource, PresentOptions } from '../registry.js';

type Row = Record<string, unknown>;

/** What presenting rows needs of a mounted resource (`ResourceMount` has it all). */
export interface PresentedResource {
  def: MountedResource['def'];
  ctx: Pick<AppContext, 'db' | 'dicts' | 'resources'>;
  /** dictionary-coded fields: name → dictionary code */
  dictFields: ReadonlyArray<readonly [string, string]>;
  /** the fields a record answers (tenantId only where it belongs; never a write-only one) */
  answered: ReadonlyArray<[string, FieldDef]>;
  hasRefs: boolean;
}

/** A field's value as answered: a secret masked, a datetime in the wire format, nothing as null. */
export function presentValue(f: FieldDef, v: unknown): unknown {
  if (f.secret) return v === undefined || v === null || v === '' ? null : SECRET_MASK;
  return v === undefined || v === null ? null : f.type === 'datetime' ? formatDateTime(v as Date) : v;
}

/** The display value (`<field>Name`) of a dictionary-coded field's value, from the dictionary's labels. */
export function dictLabel(f: FieldDef, v: unknown, labels: ReadonlyMap<string, string>): string | null {
  return v === undefined || v === null ? null : labels.get(dictKeyOf(f, String(v))) ?? null;
}

/** One row's answered fields in wire format, with `<field>Name` beside its dictionary codes and a field's aliases beside it. */
function presentFields(row: Row, fields: PresentedResource['answered'], dicts: ReadonlyArray<readonly [string, string, FieldDef]>, dictLabels: Array<Map<string, string>>): Row {
  const one: Row = {};
  for (const [name, f] of fields) one[name] = presentValue(f, row[name]);
  dicts.forEach(([name, , f], i) => {
    one[dictNameKey(name)] = dictLabel(f, row[name], dictLabels[i]!);
  });
  // BladeX's names of a field, beside it
  for (const [name, f] of fields) for (const alias of f.aliases ?? []) one[alias] = one[name];
  if (typeof row.hasChildren === 'boolean') one.hasChildren = row.hasChildren;
  return one;
}

/** A tree's ancestors, where it keeps them, answered beside the fields in every record (BladeX's departments carry them). */
function withAncestors(m: PresentedResource, rows: Row[], out: Row[], only: ReadonlySet<string> | undefined): void {
  const column = m.def.tree?.ancestorsColumn;
  if (!column || (only && !only.has(column))) return;
  rows.forEach((row, i) => {
    if (typeof row[column] === 'string') out[i]![column] = row[column];
  });
}

/**
 * Rows as answered: wire formats, `<field>Name` beside dictionary codes and references. Called outside
 * the request's transaction: dictionary labels and reference names are read on their own (PGlite has
 * one connection, so a read beside an open transaction would wait for it forever).
 */
export async function presentRows(m: PresentedResource, rows: Row[], lang: Lang, user?: AuthUser, opts: PresentOptions = {}): Promise<Row[]> {
  const { only } = opts;
  const fields = only ? m.answered.filter(([name]) => only.has(name)) : m.answered;
  const dicts = (only ? m.dictFields.filter(([name]) => only.has(name)) : m.dictFields).map(([name, code]) => [name, code, m.def.fields[name]!] as const);
  const dictLabels = await Promise.all(dicts.map(([, code]) => m.ctx.dicts.labels(code, lang)));
  const out = rows.map((row) => presentFields(row, fields, dicts, dictLabels));
  withAncestors(m, rows, out, only);
  if (m.hasRefs && rows.length) {
    if (!user) throw new Error(`resource ${m.def.code}: references are named for a caller`);
    // one query per reference field, none for the ids an export's earlier chunks named
    const known: ReferenceNames = opts.names ?? new Map();
    const missing = unnamedReferences(m.def, rows, known, only);
    if (missing.size) await inTenant(m.ctx.db, { tenantId: user.tenantId }, (tx) => loadReferenceNames(tx, m.ctx.resources, m.def, missing, user, known));
    writeReferenceNames(m.def, rows, out, known, only);
  }
  return out;
}

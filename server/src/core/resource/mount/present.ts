import { dictNameKey, type Lang, SECRET_MASK } from '@console/contract';
import type { AuthUser } from '../../context.js';
import { formatDateTime } from '../../time.js';
import { loadReferenceNames, type ReferenceNames, unnamedReferences, writeReferenceNames } from '../refs.js';
import type { PresentOptions } from '../registry.js';
import { runAs } from './access.js';
import type { ResourceMount } from './resourceMount.js';

type Row = Record<string, unknown>;

/** One row's answered fields in wire format, with `<field>Name` beside its dictionary codes. */
function presentFields(row: Row, fields: ResourceMount['answered'], dicts: ResourceMount['dictFields'], dictLabels: Array<Map<string, string>>): Row {
  const one: Row = {};
  for (const [name, f] of fields) {
    const v = row[name];
    if (f.secret) one[name] = v === undefined || v === null || v === '' ? null : SECRET_MASK;
    else one[name] = v === undefined || v === null ? null : f.type === 'datetime' ? formatDateTime(v as Date) : v;
  }
  dicts.forEach(([name], i) => {
    const v = row[name];
    one[dictNameKey(name)] = v === undefined || v === null ? null : dictLabels[i]!.get(String(v)) ?? null;
  });
  if (typeof row.hasChildren === 'boolean') one.hasChildren = row.hasChildren;
  return one;
}

/**
 * Rows as answered: wire formats, `<field>Name` beside dictionary codes and references. Called outside
 * the request's transaction: dictionary labels and reference names are read on their own (PGlite has
 * one connection, so a read beside an open transaction would wait for it forever).
 */
export async function presentRows(m: ResourceMount, rows: Row[], lang: Lang, user?: AuthUser, opts: PresentOptions = {}): Promise<Row[]> {
  const { only } = opts;
  const fields = only ? m.answered.filter(([name]) => only.has(name)) : m.answered;
  const dicts = only ? m.dictFields.filter(([name]) => only.has(name)) : m.dictFields;
  const dictLabels = await Promise.all(dicts.map(([, code]) => m.ctx.dicts.labels(code, lang)));
  const out = rows.map((row) => presentFields(row, fields, dicts, dictLabels));
  if (m.hasRefs && rows.length) {
    if (!user) throw new Error(`resource ${m.def.code}: references are named for a caller`);
    // one query per reference field, none for the ids an export's earlier chunks named
    const known: ReferenceNames = opts.names ?? new Map();
    const missing = unnamedReferences(m.def, rows, known, only);
    if (missing.size) await runAs(m, user, (tx) => loadReferenceNames(tx, m.ctx.resources, m.def, missing, user, known));
    writeReferenceNames(m.def, rows, out, known, only);
  }
  return out;
}

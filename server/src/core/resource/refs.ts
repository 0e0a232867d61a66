import { dictNameKey, type Lang, msg, nameFieldOf, type ResourceDef, t } from '@console/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { AuthUser } from '../callers.js';
import { inList } from '../db/bulk.js';
import type { Executor } from '../db/index.js';
import { AppError } from '../errors.js';
import type { ReferenceNames, ResourceRegistry } from './registry.js';

export type { ReferenceNames };

type Row = Record<string, unknown>;

/** The root of a tree: a parent id that names no row. */
export const TREE_ROOT = '0';

function idsOf(field: string, value: unknown, def: ResourceDef): string[] {
  if (value === null || value === undefined || value === '') return [];
  const text = String(value);
  const ids = text.includes(',') ? text.split(',').filter(Boolean) : [text];
  return def.tree?.parentField === field ? ids.filter((id) => id !== TREE_ROOT) : ids;
}

/** The live rows among `ids` of a referenced resource, as the caller sees them (its tenant's, or the platform's). */
async function liveIds(tx: Executor, registry: ResourceRegistry, code: string, ids: string[], user: AuthUser): Promise<Map<string, Row>> {
  if (ids.length === 0) return new Map();
  const target = registry.get(code);
  const c = target.columns;
  const conds = [inArray(c.id!, ids), eq(c.isDeleted!, 0)];
  if (target.def.scope === 'tenant') conds.push(eq(c.tenantId!, user.tenantId));
  const nameField = nameFieldOf(target.def);
  const rows = await tx.select({ id: c.id!, name: c[nameField] ?? c.id! }).from(target.table).where(and(...conds));
  return new Map(rows.map((r) => [String(r.id), r as Row]));
}

/**
 * The live rows of a referenced resource the caller sees whose display name (`nameFieldOf`) is one of `names`:
 * name → their ids (a spreadsheet names a reference as an export writes it). One query for all the names.
 */
export async function idsByName(tx: Executor, registry: ResourceRegistry, code: string, names: string[], user: AuthUser): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const target = registry.get(code);
  const c = target.columns;
  const nameColumn = c[nameFieldOf(target.def)];
  // a name is text: a resource named by a number or a date is referred to by id only
  if (names.length === 0 || !nameColumn || nameColumn === c.id || !/^(varchar|text|char)/.test(nameColumn.getSQLType())) return out;
  const conds = [inList(nameColumn, names), eq(c.isDeleted!, 0)];
  if (target.def.scope === 'tenant') conds.push(eq(c.tenantId!, user.tenantId));
  for (const r of await tx.select({ id: c.id!, name: nameColumn }).from(target.table).where(and(...conds))) {
    const name = String(r.name);
    out.set(name, [...(out.get(name) ?? []), String(r.id)]);
  }
  return out;
}

/** Refuses values of `ref`/`ids` fields that name rows the caller cannot see (400 naming the field). */
export async function checkReferences(tx: Executor, registry: ResourceRegistry, def: ResourceDef, values: Row, user: AuthUser, lang: Lang): Promise<void> {
  const fields: Record<string, string> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    if (!f.ref || !(name in values)) continue;
    const ids = idsOf(name, values[name], def);
    if (ids.length === 0) continue;
    const found = await liveIds(tx, registry, f.ref, ids, user);
    if (found.size !== ids.length) fields[name] = msg('refMissing', lang, { field: t(f.label, lang) });
  }
  if (Object.keys(fields).length) throw new AppError(400, 'validationFailed', { detail: Object.values(fields).join('; ') }, fields);
}


const single = (def: ResourceDef, field: string, text: string) => !text.includes(',') && !(def.tree?.parentField === field && text === TREE_ROOT);

/** the reference ids of `rows` not yet in `names`, by field (empty: the names can be written without the database) */
export function unnamedReferences(def: ResourceDef, rows: Row[], names: ReferenceNames, only?: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, f] of Object.entries(def.fields)) {
    if (!f.ref || f.writeOnly || (only && !only.has(name))) continue;
    const known = names.get(name);
    const missing = new Set<string>();
    for (const row of rows) {
      const v = row[name];
      if (v === null || v === undefined || v === '') continue;
      const text = String(v);
      if (single(def, name, text)) {
        if (!known?.has(text)) missing.add(text);
      } else {
        for (const id of idsOf(name, text, def)) if (!known?.has(id)) missing.add(id);
      }
    }
    if (missing.size) out.set(name, [...missing]);
  }
  return out;
}

/** Reads the display names of the `missing` ids (one query per field) into `names`. */
export async function loadReferenceNames(
  tx: Executor, registry: ResourceRegistry, def: ResourceDef, missing: Map<string, string[]>, user: AuthUser, names: ReferenceNames,
): Promise<void> {
  for (const [name, ids] of missing) {
    const found = await liveIds(tx, registry, def.fields[name]!.ref!, ids, user);
    let known = names.get(name);
    if (!known) names.set(name, (known = new Map()));
    for (const id of ids) known.set(id, found.get(id)?.name ?? null);
  }
}

/** The display name (`<field>Name`) of a reference field's value: the names of its ids, comma-joined; null when none is known. */
export function referenceName(def: ResourceDef, name: string, v: unknown, known: ReadonlyMap<string, unknown> | undefined): unknown {
  if (v === null || v === undefined || v === '') return null;
  const text = String(v);
  if (single(def, name, text)) return known?.get(text) ?? null;
  const found = idsOf(name, text, def).map((id) => known?.get(id)).filter((n) => n !== undefined && n !== null);
  return found.length ? found.join(',') : null;
}

/** Adds `<field>Name` to answered rows for each reference field, from `names` (which holds every id by now). */
export function writeReferenceNames(def: ResourceDef, rows: Row[], out: Row[], names: ReferenceNames, only?: ReadonlySet<string>): void {
  for (const [name, f] of Object.entries(def.fields)) {
    if (!f.ref || f.writeOnly || (only && !only.has(name))) continue;
    const known = names.get(name);
    const key = dictNameKey(name);
    rows.forEach((row, i) => {
      out[i]![key] = referenceName(def, name, row[name], known);
    });
  }
}

import { dictNameKey, type Lang, msg, nameFieldOf, type ResourceDef, t } from '@console/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { AuthUser } from '../context.js';
import type { Executor } from '../db/index.js';
import { AppError } from '../errors.js';
import type { ResourceRegistry } from './registry.js';

type Row = Record<string, unknown>;

/** The root of a tree: a parent id that names no row. */
export const TREE_ROOT = '0';

function idsOf(field: string, value: unknown, def: ResourceDef): string[] {
  if (value === null || value === undefined || value === '') return [];
  const ids = String(value).split(',').filter(Boolean);
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

/** Adds `<field>Name` to answered rows for each reference field: one query per field, not per row. */
export async function addReferenceNames(tx: Executor, registry: ResourceRegistry, def: ResourceDef, rows: Row[], out: Row[], user: AuthUser): Promise<void> {
  for (const [name, f] of Object.entries(def.fields)) {
    if (!f.ref || f.writeOnly) continue;
    const ids = [...new Set(rows.flatMap((r) => idsOf(name, r[name], def)))];
    const found = await liveIds(tx, registry, f.ref, ids, user);
    rows.forEach((row, i) => {
      const names = idsOf(name, row[name], def).map((id) => found.get(id)?.name).filter((n) => n !== undefined && n !== null);
      out[i]![dictNameKey(name)] = names.length ? names.join(',') : null;
    });
  }
}

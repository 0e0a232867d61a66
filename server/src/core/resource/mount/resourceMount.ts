import {
  crudPaths, type FieldDef, nameFieldOf, permissionCodes, recordSchema, type ResourceDef, submitSchema, SYSTEM_FIELDS,
} from '@console/contract';
import { getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { secretBox } from '../../secrets.js';
import type { FieldLabels } from '../../validation.js';
import { checkRegionSearch, checkSearchGrams, type ColumnMap } from '../filters.js';
import type { ResourceHooks } from '../hooks.js';
import type { MountedResource } from '../registry.js';
import { TreeRules } from '../tree.js';
import { checkRecent } from '../recent.js';
import { listRouteParts, type ListRouteParts } from './listRouteParts.js';
import { presentRows } from './present.js';
import { aliasRenaming, type AliasRenaming } from './routeOptions.js';

/**
 * One resource as the engine mounted it: its definition, table and hooks, and everything derived from them
 * once at mount (checked columns, schemas, labels, tree rules, route options). Each call's handler takes it.
 */
export interface ResourceMount extends MountedResource {
  ctx: AppContext;
  columns: ColumnMap;
  hooks: ResourceHooks;
  /** the table's column of a field; a definition naming a missing column fails at mount */
  col(name: string): PgColumn;
  codes: ReturnType<typeof permissionCodes>;
  paths: ReturnType<typeof crudPaths>;
  /** the OpenAPI tag (the service part of the path) */
  tag: string;
  tenantScoped: boolean;
  softDeleted: boolean;
  /** records written once (an audit) or read-only ones have no remove call */
  removable: boolean;
  labels: FieldLabels;
  nameField: string;
  schemas: { create: z.ZodType; update: z.ZodType; record: z.ZodObject; submitAnswer: z.ZodObject };
  secrets: ReturnType<typeof secretBox>;
  tree: TreeRules | undefined;
  /** dictionary-coded fields: name → dictionary code */
  dictFields: ReadonlyArray<readonly [string, string]>;
  /** the fields a record answers (tenantId only where it belongs; never a write-only one) */
  answered: ReadonlyArray<[string, FieldDef]>;
  hasRefs: boolean;
  /** route options shared by the calls */
  routes: {
    /** BladeX's other names of id/parentId (`detail?code=`), renamed before validation */
    withAliases: AliasRenaming;
    /** the same for the paged lists, which keep a field's own filter (see listKeyAliases) */
    withListAliases: AliasRenaming;
    adminOnly: { platformAdmin?: true };
    list: ListRouteParts;
  };
}

/** Checks the table against the definition: every field and audit column it needs is a column. */
function checkColumns(def: ResourceDef, col: (name: string) => PgColumn): { removable: boolean } {
  for (const [name, f] of Object.entries(def.fields)) if (!f.writeOnly && !f.virtual) col(name);
  // a read-only resource (an append-only log) may lack the update and soft-delete columns
  const writable = !def.readOnly || def.removable === true;
  for (const name of ['id', 'createTime', ...(writable ? ['updateTime', 'isDeleted'] : [])]) col(name);
  // records written once (an audit): created by submit, never updated nor removed
  const removable = writable && (!def.createOnly || def.removable === true);
  if (def.scope === 'tenant') col('tenantId');
  return { removable };
}

/**
 * A `money` field's `currency` names a text field of the resource that every record answers: the list, the detail
 * and the export read a row's amount in it (thrown when the engine mounts a definition naming anything else).
 */
function checkMoneyCurrencies(def: ResourceDef): void {
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.type !== 'money' || f.currency === undefined) continue;
    const c = Object.hasOwn(def.fields, f.currency) ? def.fields[f.currency] : undefined;
    if (!c || c.type !== 'string' || c.writeOnly || c.secret || c.virtual) {
      throw new Error(`resource ${def.code}: the currency of the money field ${name} (${f.currency}) must be an answered string field of the resource`);
    }
  }
}

function submitAnswerSchema(record: z.ZodObject, hooks: ResourceHooks): z.ZodObject {
  return hooks.revealed
    ? record.extend(Object.fromEntries(Object.entries(hooks.revealed).map(([k, v]) => [k, v.optional()])))
    : record;
}

/**
 * the paged lists keep a field's own filter: an alias that is also a field's name (region's `code`) filters
 * that field there (`list?code=11` is the search form's substring match, not an id)
 */
function listKeyAliases(def: ResourceDef): Array<[string, string]> {
  return Object.entries(def.keyAliases ?? {}).filter(([alias]) => !Object.hasOwn(def.fields, alias));
}

/** Derives, once, what every call of a resource needs. */
export function buildMount(ctx: AppContext, def: ResourceDef, table: PgTable, hooks: ResourceHooks): ResourceMount {
  const columns = getTableColumns(table) as ColumnMap;
  const tenantScoped = def.scope === 'tenant';
  const allFields: Record<string, FieldDef> = { ...SYSTEM_FIELDS, ...def.fields };
  const labels: FieldLabels = allFields;
  const record = recordSchema(def);
  const schemas = { create: submitSchema(def, 'create'), update: submitSchema(def, 'update'), record, submitAnswer: submitAnswerSchema(record, hooks) };
  const col = (name: string): PgColumn => {
    const c = columns[name];
    if (!c) throw new Error(`resource ${def.code}: table has no column for field ${name}`);
    return c;
  };
  const { removable } = checkColumns(def, col);
  checkSearchGrams(def, columns);
  checkRegionSearch(def, hooks);
  checkMoneyCurrencies(def);
  checkRecent(def, columns);
  const adminOnly: { platformAdmin?: true } = def.platformAdminOnly ? { platformAdmin: true } : {};
  const codes = permissionCodes(def);
  const tag = def.path.split('/')[2] ?? 'resource';
  const m: ResourceMount = {
    ctx, def, table, columns, hooks, col, labels, schemas, removable, tenantScoped, codes, tag,
    paths: crudPaths(def),
    softDeleted: Object.hasOwn(columns, 'isDeleted'),
    secrets: secretBox(ctx.config.encryptionKey),
    nameField: nameFieldOf(def),
    hasRefs: Object.values(def.fields).some((f) => f.ref && !f.writeOnly),
    dictFields: Object.entries(def.fields).filter(([, f]) => f.dict).map(([name, f]) => [name, f.dict!] as const),
    answered: Object.entries(allFields).filter(([name, f]) => !((name === 'tenantId' && !tenantScoped && !Object.hasOwn(def.fields, name)) || f.writeOnly)),
    tree: def.tree ? new TreeRules(def, table, columns) : undefined,
    routes: {
      withAliases: aliasRenaming(Object.entries(def.keyAliases ?? {})),
      withListAliases: aliasRenaming(listKeyAliases(def)),
      adminOnly,
      list: listRouteParts(codes.menu, tag, labels, adminOnly, record),
    },
    present: (rows, lang, user, opts) => presentRows(m, rows, lang, user, opts),
  };
  return m;
}

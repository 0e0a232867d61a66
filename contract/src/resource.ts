import { z } from 'zod';
import { dictNameKey, isRequired } from './define.js';
import { idInput, idListInput } from './ids.js';
import { MAX_MINOR } from './money.js';
import type { FieldDef, Fields, PermissionCodes, ResourceDef } from './resourceDef.js';
import { hasTextFormat } from './textFormat.js';

// zod-free helpers in their own module: the console's first page uses them (and the notice definition)
// without this module's schemas, which bring zod along (web/vite.config.ts, bench/RESULTS.md)
export { crudPaths, defineResource, dictKeyOf, dictNameKey, isRequired, prefixedDictKey, removeImpactPath } from './define.js';
// the definition's types, and the id inputs action.ts needs too: apart, so that no import runs in a circle
export * from './resourceDef.js';
export { idInput, idListInput, isIdText, MAX_ID } from './ids.js';
export { hasTextFormat, TEXT_FORMAT_MESSAGES } from './textFormat.js';
export { badAmountMessage, MONEY_DEFAULT_CURRENCY, MONEY_MESSAGES, moneyCurrency, moneyText } from './moneyField.js';

/** What a `secret` field answers in place of its value. */
export const SECRET_MASK = '******';

/** Columns every resource has, managed by the engine. */
export const SYSTEM_FIELDS = {
  id: { type: 'id', label: { zh: '编号', en: 'ID' }, list: false, form: false },
  tenantId: { type: 'string', label: { zh: '租户编号', en: 'Tenant ID' }, list: false, form: false },
  createUser: { type: 'id', label: { zh: '创建人', en: 'Created by' }, list: false, form: false },
  createDept: { type: 'id', label: { zh: '创建部门', en: 'Created in department' }, list: false, form: false },
  createTime: { type: 'datetime', label: { zh: '创建时间', en: 'Created at' }, form: false, sortable: true, search: 'dateRange' },
  updateUser: { type: 'id', label: { zh: '修改人', en: 'Updated by' }, list: false, form: false },
  updateTime: { type: 'datetime', label: { zh: '修改时间', en: 'Updated at' }, list: false, form: false, sortable: true },
  status: { type: 'int', label: { zh: '状态', en: 'Status' }, list: false, form: false },
} as const satisfies Fields;

export type SystemField = keyof typeof SYSTEM_FIELDS;

export function permissionCodes(def: Pick<ResourceDef, 'code' | 'within' | 'codes'>): PermissionCodes {
  const own = { ...def.within?.codes, ...def.codes };
  return {
    menu: def.codes?.menu ?? def.within?.parent ?? def.code,
    add: own.add ?? `${def.code}_add`,
    edit: own.edit ?? `${def.code}_edit`,
    delete: own.delete ?? `${def.code}_delete`,
    view: own.view ?? (def.within ? def.within.parent : `${def.code}_view`),
  };
}

/** All fields a client may filter on: the definition's own plus the system fields (minus tenantId). */
export function filterableFields(def: ResourceDef): Record<string, FieldDef> {
  const { tenantId: _omit, ...system } = SYSTEM_FIELDS;
  const own = Object.fromEntries(Object.entries(def.fields).filter(([, f]) => !f.writeOnly && !f.secret && !f.virtual && f.type !== 'json'));
  // a resource that defines a system field itself (a workflow list's text `status`) filters it as defined; the
  // fields keep their order (own fields first: the list's columns follow it)
  const rest = Object.fromEntries(Object.entries(system).filter(([name]) => !Object.hasOwn(own, name)));
  return { ...own, ...rest };
}

export function sortableFields(def: ResourceDef): string[] {
  const out = ['id', 'createTime', 'updateTime'];
  for (const [name, f] of Object.entries(def.fields)) if (f.sortable && !f.secret) out.push(name);
  return out;
}

export function shownInList(f: FieldDef): boolean {
  if (f.writeOnly) return false;
  return f.list ?? !(f.type === 'text' || f.type === 'richtext' || f.type === 'json');
}

export function shownInForm(f: FieldDef): boolean {
  return f.form ?? true;
}

/** Range of a whole number stored in a PostgreSQL integer column (the default for `int` fields). */
export const INT32 = { min: -2147483648, max: 2147483647 } as const;

export const DATETIME_PATTERN = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;
const ISO_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A real calendar date/time in the wire format (or ISO 8601): shape and ranges (no 2026-13-45). */
export function isDateTimeText(v: string): boolean {
  if (!DATETIME_PATTERN.test(v) && !ISO_PATTERN.test(v)) return false;
  const [y, mo, d, h = 0, mi = 0, s = 0] = (v.match(/\d+/g) ?? []).slice(0, 6).map(Number);
  if (y === undefined || mo === undefined || d === undefined) return false;
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCMonth() === mo - 1 && day.getUTCDate() === d && h < 24 && mi < 60 && s < 60;
}

function fieldSchema(f: FieldDef, forInput: boolean): z.ZodType {
  switch (f.type) {
    case 'string':
    case 'text':
    case 'richtext': {
      let s = z.string();
      if (forInput) s = s.trim();
      if (forInput && f.upperCase) s = s.toUpperCase();
      if (forInput && isRequired(f)) s = s.min(1);
      if (f.max !== undefined) s = s.max(f.max);
      const format = f.format;
      if (forInput && format) return s.refine((v) => v === '' || hasTextFormat(v, format), { params: { kind: 'format', format } });
      return s;
    }
    case 'int': {
      let n = forInput ? z.coerce.number().int() : z.number().int();
      if (forInput) n = n.min(f.min ?? INT32.min).max(f.max ?? INT32.max);
      return n;
    }
    case 'number': {
      let n = forInput ? z.coerce.number().finite() : z.number();
      if (f.min !== undefined) n = n.min(f.min);
      if (f.max !== undefined) n = n.max(f.max);
      return n;
    }
    case 'datetime':
      return forInput ? z.string().trim().refine(isDateTimeText, { params: { kind: 'datetime' } }) : z.string();
    case 'date':
      return forInput ? z.string().trim().refine(isDateText, { params: { kind: 'date' } }) : z.string();
    case 'id':
    case 'ref':
      return forInput ? idInput : z.string();
    case 'ids': {
      if (!forInput) return z.string();
      let list = f.max !== undefined ? idListInput.refine((v) => v === '' || v.split(',').length <= f.max!, { params: { kind: 'idsMax', max: f.max } }) : idListInput;
      if (isRequired(f)) list = list.refine((v) => v !== '', { params: { kind: 'required' } });
      return list;
    }
    case 'boolean':
      return forInput ? booleanInput : z.number().int();
    case 'file':
    case 'image': {
      let s = forInput ? z.string().trim() : z.string();
      s = s.max(f.max ?? 1000);
      return s;
    }
    case 'money':
      return forInput ? moneyInput(f) : z.number().int();
    case 'json':
      return forInput
        ? z.record(z.string().max(64), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()])).refine((v) => Object.keys(v).length <= 100, { params: { kind: 'idsMax', max: 100 } })
        : z.record(z.string(), z.unknown());
  }
}

/**
 * A `money` amount as clients send it: a JSON integer of minor units, or a text of digits (a form post). A decimal
 * (`19.5`), a sign, an exponent (`'1e3'`) or anything else is refused, never rounded (`notMinorUnits`), and so is an
 * amount below 0 or beyond `MAX_MINOR`, or outside the field's `min`/`max` (in minor units). A blank is no value,
 * refused where the field is required.
 */
function moneyInput(f: FieldDef): z.ZodType {
  const required = isRequired(f);
  const range = z.number().int().min(Math.max(0, f.min ?? 0)).max(Math.min(MAX_MINOR, f.max ?? MAX_MINOR)).nullable();
  return z.union([z.number(), z.string(), z.null()]).transform((v, ctx) => {
    const text = typeof v === 'string' ? v.trim() : undefined;
    if (v === null || text === '') {
      if (required) ctx.addIssue({ code: 'custom', params: { kind: 'required' } });
      return null;
    }
    // digits only: Number() of them is exact up to MAX_MINOR, and a longer text is refused by the range
    const minor = text === undefined ? v : /^\d{1,17}$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(minor)) {
      ctx.addIssue({ code: 'custom', params: { kind: 'money' } });
      return z.NEVER;
    }
    return minor as number;
  }).pipe(range);
}

/** A flag as clients send it: 0/1, '0'/'1', true/false; answered as 0/1. */
export const booleanInput = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])])
  .transform((v) => (v === true || v === 1 || v === '1' || v === 'true' ? 1 : 0));

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day, 'yyyy-MM-dd'. */
export function isDateText(v: string): boolean {
  return DATE_PATTERN.test(v) && isDateTimeText(v);
}

/**
 * The body of `submit`: no id creates, an id updates. Create needs every required field; an update
 * changes only the fields it carries. Keys that name no field are dropped, never written: Avue forms
 * send `$index`, `$<dictField>` display copies and search-only props, and BladeX ignores them too.
 */
export function submitSchema(def: ResourceDef, mode: 'create' | 'update'): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.virtual) continue;
    const base = fieldSchema(f, true);
    shape[name] = mode === 'create' && isRequired(f) ? base : base.nullish();
  }
  // a tree's ancestors are the engine's to keep
  if (def.tree?.ancestorsColumn) shape[def.tree.ancestorsColumn] = z.unknown().optional();
  shape.id = mode === 'update' ? fieldSchema(SYSTEM_FIELDS.id, true) : z.unknown().optional();
  // Clients echo back what `detail` gave them: accept and ignore the engine-managed columns.
  for (const name of Object.keys(SYSTEM_FIELDS)) if (name !== 'id' && !Object.hasOwn(def.fields, name)) shape[name] = z.unknown().optional();
  return z.object(shape).strip();
}

/** The shape of one record in list/detail answers. */
export function recordSchema(def: ResourceDef): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  const all: Fields = { ...SYSTEM_FIELDS, ...def.fields };
  for (const [name, f] of Object.entries(all)) {
    if (name === 'tenantId' && def.scope !== 'tenant' && !Object.hasOwn(def.fields, name)) continue;
    if (f.writeOnly) continue;
    shape[name] = fieldSchema(f, false).nullable();
    if (hasDisplayName(f)) shape[dictNameKey(name)] = z.string().nullable();
    for (const alias of f.aliases ?? []) shape[alias] = shape[name];
  }
  if (def.tree) shape.hasChildren = z.boolean().optional();
  // a tree that keeps its ancestors answers them in every record, as BladeX's departments do
  if (def.tree?.ancestorsColumn) shape[def.tree.ancestorsColumn] = z.string().optional();
  return z.object(shape);
}

/** Fields answered with a display value beside them (`<field>Name`): dictionary codes and references. */
export function hasDisplayName(f: FieldDef): boolean {
  return f.dict !== undefined || ((f.type === 'ref' || f.type === 'ids') && f.ref !== undefined);
}

/** The fields a record answers (write-only ones never are). */
export function answeredFields(def: ResourceDef): string[] {
  return Object.entries(def.fields).filter(([, f]) => !f.writeOnly).map(([name]) => name);
}

/** The label field of a resource: what names one of its rows (tree titles, `<ref>Name`, duplicate messages). */
export function nameFieldOf(def: ResourceDef): string {
  return def.tree?.labelField ?? def.nameField ?? Object.keys(def.fields).find((k) => isRequired(def.fields[k]!) && def.fields[k]!.type === 'string') ?? 'id';
}

/** A number of bytes for people: 900 B, 12.5 KB, 3.02 MB. */
export function sizeText(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return `${i === 0 ? value : Number(value.toFixed(value < 10 ? 2 : 1))} ${units[i]}`;
}

import { z } from 'zod';
import type { ActionDefs } from './action.js';
import type { I18nText } from './i18n.js';
import { dictNameKey, isRequired } from './define.js';

// zod-free helpers in their own module: the console's first page uses them (and the notice definition)
// without this module's schemas, which bring zod along (web/vite.config.ts, bench/RESULTS.md)
export { crudPaths, defineResource, dictNameKey, isRequired } from './define.js';

/**
 * A resource definition: the one description of a CRUD resource from which the server mounts
 * list/detail/submit/remove and the web renders its list page. See docs/resource-engine.md.
 */
export type FieldType =
  | 'string' // single line text
  | 'text' // multi-line text (textarea)
  | 'richtext' // HTML content
  | 'int'
  | 'number'
  | 'datetime' // 'yyyy-MM-dd HH:mm:ss' on the wire
  | 'date' // 'yyyy-MM-dd' on the wire
  | 'id' // a 64-bit id, a string on the wire
  | 'boolean' // 0 or 1 on the wire (BladeX's Integer flags); true/false accepted on input
  | 'ref' // the id of a live row of the resource named by `ref` (checked to exist in the caller's tenant)
  | 'ids' // comma-joined ids ('1,2'), each a live row of `ref` when it is set; arrays accepted on input
  | 'file' // a link to an uploaded file (put-file) or an http(s) link
  | 'image' // the same, an image
  | 'json'; // an object of named values (a device's attributes): answered as it is stored, never filtered or sorted on

export interface FieldDef {
  type: FieldType;
  label: I18nText;
  /** required on create (and may not be blanked on update); a text is the message shown when missing */
  required?: boolean | I18nText;
  /** max length for texts, max value for numbers */
  max?: number;
  /** min value for numbers */
  min?: number;
  /** a text of a known shape, checked on input (`string` fields): an IP address, an http(s) link, a MAC address */
  format?: TextFormat;
  /**
   * kept in capitals (an SN): the value is upper-cased on input, and a prefix search (`_likeright`) compares in
   * capitals with LIKE, which a btree index of the column (COLLATE "C") serves, ordered, on millions of rows
   */
  upperCase?: boolean;
  /** values come from this dictionary (`dict/dictionary?code=`); the stored value is the dictKey */
  dict?: string;
  /**
   * how the field appears in the search form; absent means not in the search form (it can still be filtered
   * through the API). `prefix`: the value's start (the box sends `<field>_likeright`), for codes kept in capitals
   * (`upperCase`, an SN) on tables of millions of rows: the column's btree answers it, where a substring search
   * of a long code costs the grams index its most common pairs
   */
  search?: 'like' | 'prefix' | 'equal' | 'dateRange';
  /** shown as a table column (default true, except text/richtext) */
  list?: boolean;
  /** shown in the add/edit form (default true) */
  form?: boolean;
  /** sortable through ascs/descs (default false) */
  sortable?: boolean;
  /** must be unique among live rows (per tenant for tenant-scoped resources) */
  unique?: boolean;
  /** column width hint for the table */
  width?: number;
  /** placeholder / help in the form */
  help?: I18nText;
  /** value used for a new record when the form leaves it empty */
  defaultValue?: string | number;
  /** `ref` / `ids`: the code of the resource whose rows the value names; answered with `<field>Name` */
  ref?: string;
  /** accepted on submit, never answered (a password); not a column of the table */
  writeOnly?: boolean;
  /** set when the record is created; an update that changes it is refused */
  immutable?: boolean;
  /**
   * a credential (an access key, a secret key): stored encrypted (AES-256-GCM), answered as `******` when
   * set, never filtered or sorted on; an update that sends `******` (or nothing, or a blank) keeps the
   * stored one. The console renders it as a password input.
   */
  secret?: boolean;
}

/** What a `secret` field answers in place of its value. */
export const SECRET_MASK = '******';

export type Fields = Record<string, FieldDef>;

export type TextFormat = 'ip' | 'url' | 'mac';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const MAC = /^[0-9A-Fa-f]{2}([:-]?[0-9A-Fa-f]{2}){5}$/;

/** Whether a text has the shape of its format (the browser's and Node's URL parser judge IPv6 and links). */
export function hasTextFormat(v: string, format: TextFormat): boolean {
  switch (format) {
    case 'ip':
      if (IPV4.test(v)) return true;
      if (!v.includes(':') || /[^0-9A-Fa-f:.]/.test(v)) return false;
      try {
        return new URL(`http://[${v}]/`).hostname.length > 2;
      } catch {
        return false;
      }
    case 'url':
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !/[\s<>"'`]/.test(v);
      } catch {
        return false;
      }
    case 'mac':
      return MAC.test(v);
  }
}

/** Where a resource's screen sits in the menu tree (menus.md); the seed and the console's routes derive from it. */
export interface MenuPlacement {
  /** code of the parent directory (contract/src/menus.ts) */
  parent: string;
  /** the console route of the screen, e.g. /system/dept */
  route: string;
  name: I18nText;
  sort: number;
  /** Saber iconfont class */
  icon?: string;
  /** buttons beyond add/edit/delete/view (menus.md "extra buttons") */
  buttons?: ButtonDef[];
}

export interface ButtonDef {
  /** the permission code, e.g. user_reset */
  code: string;
  name: I18nText;
  /** BladeX's alias (also picks the icon): add, edit, delete, view, or the action's own word */
  alias: string;
  placement: 'toolbar' | 'row' | 'both';
  /** the action it calls (a key of `actions`), for the menu's API path */
  action?: string;
  /**
   * the screen's own page draws this button (a dialog of its own, a file picker): the generic list page does
   * not. Without it, a button naming an `action` callable with a row's `{ id }` (row) or the selection's
   * `{ ids }` or nothing (toolbar) is rendered by the generic page, with a confirmation.
   */
  custom?: true;
  /** the generic button's confirmation (default: the action's name and the row's) */
  confirm?: I18nText;
  /** the generic button's success message; `{key}` takes the answer's field of that name (default: 「name」 done) */
  done?: I18nText;
  /**
   * a generic row button shown only on rows whose `field` holds one of `values` (a draft can be published, a
   * published version withdrawn); the server refuses the others all the same
   */
  shownWhen?: { field: string; values: ReadonlyArray<string | number> };
}

/** A tree resource: rows name their parent; the engine keeps ancestors and answers the tree calls. */
export interface TreeDef {
  /** the field holding the parent's id ('0' for a root) */
  parentField: string;
  /** a column (not a field) holding the comma-joined ids from the root, e.g. '0,12,57' */
  ancestorsColumn?: string;
  /** the field shown as a node's title (default: the resource's name field) */
  labelField?: string;
  /** `list` answers the whole matching tree unpaged (BladeX's dept, role, menu and dict lists) */
  unpagedList?: boolean;
}

/** Streamed xlsx export and background import, declared per resource (api.md section 5). */
export interface ImportExportDef {
  /** `GET {path}/export`: every row matching the list filters; permission code (default `<code>_export`) */
  export?: { permission?: string; name?: string };
  /**
   * `POST {path}/import` (multipart `file`), `GET {path}/import-template`, `GET {path}/get-upload-progress?id=`;
   * `bundle`: a .zip is accepted too, holding the sheet and files its cells name (certificates and keys)
   */
  import?: { permission?: string; name?: string; bundle?: boolean };
}

export interface ResourceDef<F extends Fields = Fields, A extends ActionDefs = ActionDefs> {
  /** the menu code; permission codes are `<code>_add`, `<code>_edit`, `<code>_delete`, `<code>_view` */
  code: string;
  /** API base path, e.g. /api/blade-system/param */
  path: string;
  title: I18nText;
  /** tenant: rows belong to the caller's tenant; platform: one set of rows, written only by tenant 000000 */
  scope: 'tenant' | 'platform';
  /** read and written only by the platform's administrators (tenants, packages): 403 for anyone else */
  platformAdminOnly?: boolean;
  fields: F;
  /** default order, newest first when absent */
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  /** which of the standard buttons the screen has (default all four) */
  buttons?: { add?: boolean; edit?: boolean; delete?: boolean; view?: boolean };
  /** the field that names a record in messages (e.g. duplicates); defaults to the first required string */
  nameField?: string;
  /** the screen's place in the menu; absent for resources without a screen of their own */
  menu?: MenuPlacement;
  /** a tree resource */
  tree?: TreeDef;
  /** calls beyond CRUD (grant, enable, reset-password…), typed (contract/src/action.ts) */
  actions?: A;
  /** xlsx export / import */
  io?: ImportExportDef;
  /**
   * query parameters accepted as other names of `id` / `parentId` (BladeX's region: `detail?code=`,
   * `lazy-tree?parentCode=`), for resources whose id is their natural key
   */
  keyAliases?: Record<string, 'id' | 'parentId'>;
  /** 'custom': the console renders a page of its own for this resource (web/src/modules/pages.ts) */
  page?: 'generic' | 'custom';
  /**
   * no `submit` and no `remove` (append-only logs; set `removable` to keep `remove`): the table need not
   * have the update and soft-delete columns (`updateTime`, `isDeleted`) then
   */
  readOnly?: boolean;
  /** with `readOnly` or `createOnly`: `remove` is still mounted (the attachment register, a pending device command) */
  removable?: boolean;
  /**
   * records written once and kept as they are (an audit of SN rewrites): `submit` creates, an update is
   * refused (400), and there is no `remove`; the screen has no edit or delete buttons
   */
  createOnly?: boolean;
  /**
   * columns that vary by row kind (a batch's devices, by product type): `GET {path}` with those of the
   * list's filters named in `by` answers them (`DynamicColumn[]`); each shows `<field>.<key>` of a json
   * field, in the list and in the export
   */
  dynamicColumns?: { path: string; field: string; by: string[] };
  /**
   * the engine's calls under names of their own (the IPC back office's `factory-list`, `add-factory`,
   * `del-factory`), each the last segment after `path`; a call not named keeps its own name
   */
  routes?: Partial<Record<CrudCall, string>>;
  /**
   * shown inside another resource's screen instead of a menu of its own (a factory's stations, a batch's
   * devices): see `WithinDef`
   */
  within?: WithinDef;
  /**
   * permission codes other than the code's own (a resource worked on in another's screen without being its
   * child: the OTA tasks on the 升级进度 screen, menu code `ota_progress`, added with `ota_task_add`)
   */
  codes?: Partial<PermissionCodes>;
}

export type CrudCall = 'list' | 'detail' | 'submit' | 'remove';

/** One of a resource's dynamic columns (`dynamicColumns`), its label in the caller's language. */
export interface DynamicColumn {
  key: string;
  label: string;
  type: 'text' | 'number' | 'date' | 'boolean';
}

/**
 * A resource whose rows belong to a row of another resource and are worked on in that resource's screen:
 * the parent's screen lists them per row, the form is pre-filled with the parent, and the permission codes
 * are the parent's (its menu code reads; the buttons named in `codes`, extra buttons of the parent's menu,
 * write).
 */
export interface WithinDef {
  /** the parent resource's code */
  parent: string;
  /** the field holding the parent row's id */
  field: string;
  /** the parent menu's buttons that guard add / edit / delete / view (default: `<code>_add`…; view: the parent's menu code) */
  codes?: Partial<Record<'add' | 'edit' | 'delete' | 'view', string>>;
}



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

export interface PermissionCodes {
  menu: string;
  add: string;
  edit: string;
  delete: string;
  view: string;
}

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
  const own = Object.fromEntries(Object.entries(def.fields).filter(([, f]) => !f.writeOnly && !f.secret && f.type !== 'json'));
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

/** Ids are 64-bit integers, written as decimal strings on the wire. */
export const MAX_ID = 9223372036854775807n;
export function isIdText(v: unknown): v is string {
  return typeof v === 'string' && /^\d{1,19}$/.test(v) && BigInt(v) <= MAX_ID;
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
    case 'json':
      return forInput
        ? z.record(z.string().max(64), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()])).refine((v) => Object.keys(v).length <= 100, { params: { kind: 'idsMax', max: 100 } })
        : z.record(z.string(), z.unknown());
  }
}

/** An id as clients send it: a decimal string or a (safe) number. */
export const idInput = z.union([z.string().trim().refine(isIdText), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]).transform(String);

/** A list of ids as clients send it (BladeX: '1,2'; JSON clients: ['1','2']), normalised to '1,2' without repeats. */
export const idListInput = z
  .union([z.string(), z.array(z.union([z.string(), z.number()]))])
  .transform((v) => [...new Set((Array.isArray(v) ? v.map(String) : v.split(',')).map((s) => s.trim()).filter(Boolean))])
  .refine((ids) => ids.every(isIdText))
  .transform((ids) => ids.join(','));

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
  }
  if (def.tree) shape.hasChildren = z.boolean().optional();
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

import type { ActionDefs } from './action.js';
import type { I18nText } from './i18n.js';

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
  | 'json' // an object of named values (a device's attributes): answered as it is stored, never filtered or sorted on
  | 'money'; // an amount in the minor units of its currency (fen for CNY): a JSON integer on the wire (`currency`)

export interface FieldDef {
  type: FieldType;
  label: I18nText;
  /** required on create (and may not be blanked on update); a text is the message shown when missing */
  required?: boolean | I18nText;
  /** max length for texts, max value for numbers (a `money` field's in minor units) */
  max?: number;
  /** min value for numbers (a `money` field's in minor units) */
  min?: number;
  /**
   * `money`: the name of the field of the same resource holding the ISO code of the row's currency (a dictionary-coded
   * `string`, `CURRENCIES`); absent, or a row whose code is empty or unknown, means CNY. The amount itself is always an
   * integer of minor units; the currency says how many of them make the major unit people read and type (`formatMoney`)
   */
  currency?: string;
  /** a number of bytes (a file's size): shown as B / KB / MB / GB */
  bytes?: true;
  /** `image`: several links, comma-joined (a feedback's pictures), each shown as a thumbnail */
  multiple?: true;
  /**
   * a text of a known shape, checked on input by the server and in every form (`string` fields): an IP address, an
   * http(s) link, a MAC address, a mobile number, a phone number (mobile, landline or 400), an email address
   */
  format?: TextFormat;
  /**
   * kept in capitals (an SN): the value is upper-cased on input, and a prefix search (`_likeright`) compares in
   * capitals with LIKE, which a btree index of the column (COLLATE "C") serves, ordered, on millions of rows
   */
  upperCase?: boolean;
  /** values come from this dictionary (`dict/dictionary?code=`); the stored value is the dictKey */
  dict?: string;
  /**
   * with `dict`: the stored and answered value is `<dict>_<dictKey>` (BladeX's process categories, `flow_1`, the
   * key of Saber's flow routes); a bare dictKey given to a submit or a filter means the same item
   */
  dictPrefixed?: true;
  /**
   * BladeX's other names of the field (a work list's `taskName` for `name`): answered beside it with its value,
   * and accepted as its name in a list's filters
   */
  aliases?: readonly string[];
  /**
   * not a column: a value the resource's `shown` hook derives for the rows it reads (a task's process version);
   * answered, never filtered, sorted nor written
   */
  virtual?: true;
  /**
   * how the field appears in the search form; absent means not in the search form (it can still be filtered
   * through the API). `prefix`: the value's start (the box sends `<field>_likeright`), for codes kept in capitals
   * (`upperCase`, an SN) on tables of millions of rows: the column's btree answers it, where a substring search
   * of a long code costs the grams index its most common pairs. `region` (a `regionPath` field): a region picked
   * in the tree, sent as `<field>_likeright` holding the picked path's last code; the resource answers it with that
   * region and every region under it (a `listParams` hook of `<field>_likeright`, checked when the engine mounts it).
   * A `regionPath` field searched `equal` is picked the same way and sends the whole path as `<field>_equal`.
   */
  search?: 'like' | 'prefix' | 'equal' | 'dateRange' | 'region';
  /**
   * a `string` holding a path of the region tree (the resource `REGION_TREE`), province first, comma-joined codes
   * (`330000,330100,330106`); a province or a city alone is a path too. The console picks it level by level from the
   * tree's `lazy-tree`, and the screens holding such a field may read that tree. The server's hooks check the path.
   */
  regionPath?: true;
  /** shown as a table column (default true, except text/richtext) */
  list?: boolean;
  /** shown in the add/edit form (default true) */
  form?: boolean;
  /**
   * shown in the form only while the record meets the condition, read from the form's values and then from the
   * stored record (a replacement's new lock for a `replace` record; WeChat Pay's merchant fields on its own
   * channel's row); the server's hooks keep what a hidden field means
   */
  formWhen?: RowCondition;
  /** sortable through ascs/descs (default false) */
  sortable?: boolean;
  /** must be unique among live rows (per tenant for tenant-scoped resources) */
  unique?: boolean;
  /** column width hint for the table */
  width?: number;
  /**
   * a decisive column (a state, a count the operator came to see): at laptop widths it keeps its width and stays
   * in view without scrolling sideways, while the other columns shrink to their headers first (docs/resource-engine.md)
   */
  key?: true;
  /** placeholder / help in the form */
  help?: I18nText;
  /** value used for a new record when the form leaves it empty */
  defaultValue?: string | number;
  /** `ref` / `ids`: the code of the resource whose rows the value names; answered with `<field>Name` */
  ref?: string;
  /**
   * `ref` / `ids`: what removing the row it names does to this record (docs/decisions.md, "No delete orphans
   * anything"): `refuse` (the default) refuses the remove while a live record names it; `cascade` removes this
   * record with it; `detach` lets go of it (the field cleared, or the id taken out of an `ids` list); `keep`: a
   * record of history (an OTA task's firmware) keeps naming it, shown as deleted
   */
  onRemove?: RemovePolicy;
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

export type Fields = Record<string, FieldDef>;

/** The tree resource whose codes a `regionPath` field holds (administrative divisions). */
export const REGION_TREE = 'region';

/** What removing a referenced row does to a record that names it (`FieldDef.onRemove`). */
export type RemovePolicy = 'refuse' | 'cascade' | 'detach' | 'keep';

/**
 * The answer of `<remove>-impact?ids=`: what a remove of those rows would do, before it is asked. `refused`: a
 * live record still uses one of them (the remove answers 409 with `message`); else `uses` lists what goes
 * with them (cascade) or lets go of them (detach). `message` says it in the caller's language.
 */
export interface RemoveImpact {
  refused: boolean;
  message: string;
  uses: Array<{ resource: string; policy: RemovePolicy; count: number; names: string[] }>;
}

/** the rules of each: contract/src/textFormat.ts */
export type TextFormat = 'ip' | 'url' | 'mac' | 'mobile' | 'phone' | 'email';

/** Where a resource's screen sits in the menu tree (menus.md); the seed and the console's routes derive from it. */
export interface MenuPlacement {
  /** code of the parent directory (`MENU_DIRECTORIES`: each area declares its own, `defineArea({ menus })`) */
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
  shownWhen?: RowCondition;
  /**
   * a generic row button that decides a request: its dialog asks approve or reject (the action's `field` set to
   * `approve` or `reject`) and an optional comment (`comment`, the input's key); it is offered only when the action
   * takes `{ id, [field], [comment] }` (a row's, never the toolbar's)
   */
  decide?: { field: string; approve: string | number; reject: string | number; comment?: string };
  /**
   * a generic row button that needs one value typed by the operator (the lock an order moves to): its dialog asks for
   * it and the action gets `{ id, [field]: value }`, and, for each `also` entry, the row's value of a field under
   * the entry's key (what the operator saw: a change made meanwhile by someone else is refused); offered only when
   * the action takes them
   */
  ask?: { field: string; label: I18nText; required: I18nText; max: number; upperCase?: boolean; also?: Record<string, string> };
}

/** A condition on a row: its `field` holds one of `values`. */
export interface RowCondition {
  field: string;
  values: ReadonlyArray<string | number>;
}

/** Whether a row meets a condition (none: every row); the console offers a button by it, the server enforces it. */
export function rowMeets(when: RowCondition | undefined, record: Readonly<Record<string, unknown>>): boolean {
  if (!when) return true;
  const value = record[when.field];
  return value !== undefined && value !== null && when.values.some((v) => String(v) === String(value));
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
  /**
   * a table partitioned by the time of `field` (a `datetime` field or `createTime`; docs/decisions.md,
   * "Time-partitioned logs"): the console opens the list with its last `days` days in the search form, a range on
   * the partition key, so the database reads those partitions alone; a caller naming no range (Saber) gets every
   * row, newest first, read from the newest partitions on
   */
  recent?: { field: string; days: number };
  /** which of the standard buttons the screen has (default all four) */
  buttons?: { add?: boolean; edit?: boolean; delete?: boolean; view?: boolean };
  /**
   * the standard row buttons offered only on rows in these states (a decided request is no longer edited); the
   * server refuses the others all the same, with the reason
   */
  rowButtons?: { edit?: RowCondition; delete?: RowCondition };
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

export interface PermissionCodes {
  menu: string;
  add: string;
  edit: string;
  delete: string;
  view: string;
}

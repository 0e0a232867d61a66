import {
  crudPaths, dictKeyOf, dictNameKey, type FieldDef, filterableFields, isRequired, type Lang, msg, nameFieldOf, type Page, permissionCodes, prefixedDictKey,
  type ResourceDef, SECRET_MASK, sortableFields, SYSTEM_FIELDS, t,
} from '@console/contract';
import { textFormatMessage } from '@console/contract/textFormat';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../../src/core/db/index.js';
import { nextId } from '../../src/core/ids.js';
import { parseDateTime } from '../../src/core/time.js';
import { type Harness, useServer } from '../harness.js';
import { type Account, type Answer, DEMO_ADMIN, idsIn, isRef, KitSupport, nextSeq, PLATFORM_ADMIN, type Row, tagOf } from './support.js';

export { type Account, DEMO_ADMIN, PLATFORM_ADMIN } from './support.js';

/**
 * The resource conformance kit: `describeResource(def)` generates the standard tests of a resource the
 * engine mounts (CRUD round trip, required messages, duplicates, immutable fields, tenant isolation,
 * permission codes, search and sort, tree calls, references). See server/test/conformance.test.ts.
 */

/** The groups of generated tests; a resource may skip one only with a reason (shown as a skipped test). */
export type KitCheck = 'crud' | 'required' | 'format' | 'unique' | 'immutable' | 'tenant' | 'ownership' | 'permissions' | 'search' | 'sort' | 'tree' | 'refs';
export const KIT_CHECKS: readonly KitCheck[] = ['crud', 'required', 'format', 'unique', 'immutable', 'tenant', 'ownership', 'permissions', 'search', 'sort', 'tree', 'refs'];

/** What a value function is given: `n` is unique per generated row (use it for unique values). */
export interface ValueContext {
  n: number;
  who: Account;
  field: string;
  kit: Kit;
}
/** A fixed valid value, or a function making one (it may create the rows it needs). */
export type ValueSource = string | number | boolean | string[] | null | ((c: ValueContext) => unknown);

/**
 * A device-facing resource: its rows name a device by SN, and a device is the tenant's it was delivered to. The
 * ownership checks use the "shared product type" fixture: the device's product type is authorised to the other
 * tenant and to a third one (the stranger), and the device is delivered to the other tenant only.
 */
export interface DeviceOptions {
  /** the field naming the device's SN */
  field: string;
  /** a new device delivered to `owner` (the platform administrator: not delivered); its SN and the delivery's id */
  device: (kit: Kit, owner: Account) => Promise<{ sn: string; deliveryId?: string }>;
  /** tenant rows the former owner still reads once the device is returned, and why (default: they leave with the device) */
  kept?: string;
  /** the row of this resource naming the device, made as `who` (default: created, or inserted when read-only, with the field set) */
  row?: (kit: Kit, who: Account, sn: string) => Promise<string>;
  /** a tenant holds one row per device (a device's area): naming it again answers 409 instead of a second row */
  onePerDevice?: true;
  /**
   * what naming the device again in the same values answers when it is not 200, and why (a lock's second owner is a
   * refusal of the business, 400 naming the field)
   */
  again?: { status: number; why: string };
}

export interface ResourceOptions {
  /** a device-facing resource: the ownership checks (see DeviceOptions) */
  devices?: DeviceOptions;
  /** the server to test against (default: a server of its own for this resource) */
  harness?: Harness;
  /** valid values for fields the kit cannot generate (or generates wrongly) */
  values?: Record<string, ValueSource>;
  /** optional fields never sent on create, each with the reason */
  omit?: Record<string, string>;
  /** rows of referenced resources: fixed values for their fields, or how to create one (answers its id) */
  refs?: Record<string, { values?: Record<string, ValueSource>; create?: (kit: Kit, who: Account) => Promise<string> }>;
  /**
   * rows made outside the console's create (by the phone app, with their tenant), with the reason: the kit inserts
   * them (`insert`, else `insertRow`), generating the fields the server sets too, and checks that the console's
   * create is refused; the groups that create through submit do not apply
   */
  madeElsewhere?: string;
  /** references the server sets itself (a record's handler, a reply's author), each with the reason: no refs tests */
  serverRefs?: Record<string, string>;
  /** groups of tests this resource cannot pass yet, each with the reason (they show as skipped) */
  skip?: Partial<Record<KitCheck, string>>;
  /** runs after the kit created a row of any resource (this one or a referenced one), e.g. to grant what reading it needs */
  onCreated?: (kit: Kit, def: ResourceDef, row: Row) => Promise<void>;
  /** runs once the server is up and the accounts are signed in */
  setup?: (kit: Kit) => Promise<void>;
  /** who creates the rows (default: the platform administrator, 000000/admin) */
  actor?: Account;
  /** an administrator of another tenant (default: the demo tenant's, 541742/admin) */
  otherTenant?: Account;
  /**
   * a read-only resource (no submit): writes a row of `who`'s tenant with these generated values straight
   * into its table, answering its id (default: `insertRow`, the binding's table through the test server's db)
   */
  insert?: (kit: Kit, who: Account, values: Row) => Promise<string>;
}

/** What setup and value functions may use. */
export interface Kit {
  readonly def: ResourceDef;
  readonly harness: Harness;
  readonly actor: Account;
  readonly other: Account;
  /** a valid create body for `def` (default: this resource) as `who` (default: the actor) */
  values(opts?: { def?: ResourceDef; who?: Account; n?: number; overrides?: Row }): Promise<Row>;
  /** creates a row through the resource's own submit (must answer 200), answering the saved row; a read-only resource's row is inserted (options.insert) and answered as detail reads it */
  create(opts?: { def?: ResourceDef; who?: Account; overrides?: Row }): Promise<Row>;
  /** a row of the resource with this code, created for `who`: its id and its name */
  refRow(code: string, who: Account): Promise<{ id: string; name: string }>;
  grant(who: Account, codes: string[]): Promise<void>;
  /** writes a row of a resource straight into its table in `who`'s tenant (ids, audit columns added), answering its id */
  insertRow(def: ResourceDef, who: Account, values: Row): Promise<string>;
  userWithCodes(tenantId: string, codes: string[]): Promise<Account>;
  /** authorises these tenants for the product type of the device with this SN (the shared product type) */
  shareProductType(sn: string, tenantIds: string[]): Promise<void>;
  call<T = Row>(who: Account | null, method: 'GET' | 'POST', url: string, opts?: { query?: Record<string, string | number>; body?: unknown; lang?: Lang }): Promise<Answer<T>>;
}

const MISSING_ID = '9123456789012345678';
const TREE_ROOT = '0';
const REF_DEPTH = 6;

function checkOptions(def: ResourceDef, o: ResourceOptions): void {
  const where = `conformance options of ${def.code}`;
  for (const name of [...Object.keys(o.values ?? {}), ...Object.keys(o.omit ?? {})]) {
    if (!Object.hasOwn(def.fields, name)) throw new Error(`${where}: ${name} is not a field`);
  }
  for (const [name, reason] of Object.entries(o.omit ?? {})) {
    if (isRequired(def.fields[name]!)) throw new Error(`${where}: the required field ${name} cannot be omitted`);
    if (!reason.trim()) throw new Error(`${where}: omitting ${name} needs a reason`);
  }
  for (const [check, reason] of Object.entries(o.skip ?? {})) {
    if (!(KIT_CHECKS as readonly string[]).includes(check)) throw new Error(`${where}: unknown check ${check}`);
    if (!reason?.trim()) throw new Error(`${where}: skipping ${check} needs a reason`);
  }
}

/** The value as the API answers it. */
function answered(f: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (f.type) {
    case 'boolean':
      return v === true || v === 1 || v === '1' || v === 'true' ? 1 : 0;
    case 'int':
    case 'number':
    case 'money':
      return Number(v);
    case 'ids':
      return [...new Set((Array.isArray(v) ? v.map(String) : String(v).split(',')).map((s) => s.trim()).filter(Boolean))].join(',');
    case 'json':
      return v;
    default:
      return typeof v === 'string' ? v.trim() : String(v);
  }
}

/** Orders two answered values of a field as the database sorts them. */
function compare(f: FieldDef | undefined, a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1; // nulls last ascending
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (f && (f.type === 'id' || f.type === 'ref') && /^\d+$/.test(String(a)) && /^\d+$/.test(String(b))) {
    const d = BigInt(String(a)) - BigInt(String(b));
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  return String(a) < String(b) ? -1 : 1;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

class KitRun implements Kit {
  readonly support: KitSupport;
  readonly actor: Account;
  readonly other: Account;
  private readonly granted = new Set<string>();

  constructor(readonly def: ResourceDef, readonly harness: Harness, readonly options: ResourceOptions) {
    this.support = new KitSupport(harness);
    this.actor = options.actor ?? PLATFORM_ADMIN;
    this.other = options.otherTenant ?? DEMO_ADMIN;
  }

  call<T = Row>(who: Account | null, method: 'GET' | 'POST', url: string, opts: { query?: Record<string, string | number>; body?: unknown; lang?: Lang } = {}): Promise<Answer<T>> {
    return this.support.call<T>(who, method, url, opts);
  }

  grant(who: Account, codes: string[]): Promise<void> {
    return this.support.grant(who, codes);
  }

  userWithCodes(tenantId: string, codes: string[]): Promise<Account> {
    return this.support.userWithCodes(tenantId, codes);
  }

  shareProductType(sn: string, tenantIds: string[]): Promise<void> {
    return this.support.shareProductType(sn, tenantIds);
  }

  /** A user of a third tenant (the stranger) holding every permission code of the resource. */
  async stranger(def: ResourceDef): Promise<Account> {
    const stranger = await this.support.userWithCodes(await this.support.strangerTenant(), []);
    await this.grant(stranger, Object.values(permissionCodes(def)));
    return stranger;
  }

  /** Gives `who` every permission code of the resource (once), unless it is the actor. */
  async ensureCodes(def: ResourceDef, who: Account): Promise<void> {
    const key = `${def.code}:${who.tenantId}/${who.account}`;
    if ((who.tenantId === this.actor.tenantId && who.account === this.actor.account) || this.granted.has(key)) return;
    this.granted.add(key);
    await this.grant(who, Object.values(permissionCodes(def)));
  }

  private source(def: ResourceDef, field: string): ValueSource | undefined {
    if (def.code === this.def.code) return this.options.values?.[field];
    return this.options.refs?.[def.code]?.values?.[field];
  }

  /** A generated valid value of one field for row number n. */
  async generate(def: ResourceDef, name: string, f: FieldDef, who: Account, n: number, depth = 0, ownGenerator = false): Promise<unknown> {
    const src = ownGenerator ? undefined : this.source(def, name);
    if (src !== undefined) return typeof src === 'function' ? src({ n, who, field: name, kit: this }) : src;
    if (def.tree?.parentField === name) return TREE_ROOT;
    if (f.dict) {
      const items = await this.support.dictionary(f.dict);
      const key = items[n % items.length]!.dictKey;
      if (f.dictPrefixed) return prefixedDictKey(f.dict, key);
      return f.type === 'int' || f.type === 'number' || f.type === 'boolean' ? Number(key) : key;
    }
    const tag = tagOf(n);
    const text = (room = f.max) => {
      const s = `kit-${name}-${tag}`;
      return room !== undefined && s.length > room ? s.slice(-room) : s;
    };
    if (f.format === 'ip') return n % 2 ? `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` : `fd00::${(n & 0xffff).toString(16)}`;
    if (f.format === 'url') return `https://kit-${name.toLowerCase()}-${tag}.example.com/`;
    if (f.format === 'mac') return `02:00:${[24, 16, 8, 0].map((b) => ((n >> b) & 255).toString(16).padStart(2, '0')).join(':')}`.toUpperCase();
    if (f.format === 'mobile' || f.format === 'phone') return `139${String(n % 100_000_000).padStart(8, '0')}`;
    if (f.format === 'email') return `kit-${name.toLowerCase()}-${tag}@example.com`;
    switch (f.type) {
      case 'string':
      case 'text':
        // a code kept in capitals is so wherever it comes from (the rows a fixture writes for a read-only resource too)
        return f.upperCase ? text().toUpperCase() : text();
      case 'richtext':
        return `<p>${text(f.max === undefined ? undefined : f.max - 7)}</p>`;
      case 'int':
      case 'number':
      case 'money': {
        // an amount is minor units: an integer, never below 0
        const lo = f.type === 'money' ? Math.max(0, f.min ?? 0) : f.min ?? Math.min(0, f.max ?? 0);
        const hi = f.max ?? lo + 10_000;
        const v = lo + (n % (hi - lo + 1));
        return f.type === 'number' && v + 0.5 <= hi ? v + 0.5 : v;
      }
      case 'datetime':
        return `2024-${pad(1 + (Math.floor(n / 28) % 12))}-${pad(1 + (n % 28))} ${pad(n % 24)}:${pad((n * 7) % 60)}:${pad((n * 13) % 60)}`;
      case 'date':
        return `2024-${pad(1 + (Math.floor(n / 28) % 12))}-${pad(1 + (n % 28))}`;
      case 'id':
        return String(1_000_000_000 + n);
      case 'boolean':
        return n % 2;
      case 'file':
      case 'image': {
        const link = `https://files.example.com/kit/${tag}.${f.type === 'image' ? 'png' : 'pdf'}`;
        return f.max !== undefined && link.length > f.max ? `/${tag}`.slice(0, f.max) : link;
      }
      case 'json':
        return { kit: tag, n };
      case 'ref':
      case 'ids': {
        const count = f.type === 'ref' ? 1 : Math.max(1, Math.min(2, f.max ?? 2));
        if (!f.ref) return Array.from({ length: count }, (_, i) => String(1_000_000_000 + n + i)).join(',');
        if (depth >= REF_DEPTH) {
          if (isRequired(f)) throw new Error(`conformance kit: references nest deeper than ${REF_DEPTH} at ${def.code}.${name}; give options.refs`);
          return undefined;
        }
        const ids: string[] = [];
        for (let i = 0; i < count; i++) ids.push((await this.refRow(f.ref, who, depth + 1)).id);
        return ids.join(',');
      }
    }
  }

  async values(opts: { def?: ResourceDef; who?: Account; n?: number; overrides?: Row; depth?: number } = {}): Promise<Row> {
    const def = opts.def ?? this.def;
    const who = opts.who ?? this.actor;
    const n = opts.n ?? nextSeq();
    const out: Row = {};
    for (const [name, f] of Object.entries(def.fields)) {
      if (opts.overrides && Object.hasOwn(opts.overrides, name)) continue;
      if (def.code === this.def.code && this.options.omit?.[name]) continue;
      // derived on read (no column), or the row's id (a definition may declare it for its BladeX alias): the kit's own
      if (f.virtual || name === 'id') continue;
      // a field the form does not show is the server's to set (derived, generated): never sent unless the
      // options give a value; an inserted row (read-only resources) carries every field
      if (!this.inserted(def) && serverSet(def, name) && this.source(def, name) === undefined) continue;
      const v = await this.generate(def, name, f, who, n, opts.depth ?? 0);
      if (v !== undefined) out[name] = v;
    }
    return { ...out, ...(opts.overrides ?? {}) };
  }

  async create(opts: { def?: ResourceDef; who?: Account; overrides?: Row; n?: number; depth?: number } = {}): Promise<Row> {
    const def = opts.def ?? this.def;
    const who = opts.who ?? this.actor;
    await this.ensureCodes(def, who);
    const body = await this.values({ ...opts, def, who });
    if (this.inserted(def)) {
      const id = await this.insert(def, who, body);
      const detail = await this.call(who, 'GET', crudPaths(def).detail, { query: { id } });
      if (detail.status !== 200) throw new Error(`conformance kit: the inserted ${def.code} row ${id} cannot be read as ${who.tenantId}/${who.account} (${detail.status} ${detail.body.msg})`);
      return detail.body.data;
    }
    const res = await this.call(who, 'POST', crudPaths(def).submit, { body });
    if (res.status !== 200) {
      throw new Error(`conformance kit: creating a ${def.code} as ${who.tenantId}/${who.account} answered ${res.status} ${res.body.msg} ${JSON.stringify(res.body.data)} for ${JSON.stringify(body)}`);
    }
    await this.options.onCreated?.(this, def, res.body.data);
    return res.body.data;
  }

  /** whether the kit writes the resource's rows into its table (read-only, or made elsewhere) rather than through submit */
  inserted(def: ResourceDef): boolean {
    return def.readOnly === true || (def.code === this.def.code && this.options.madeElsewhere !== undefined);
  }

  /** a row of a read-only resource, written into its table (options.insert for this resource, else insertRow) */
  insert(def: ResourceDef, who: Account, values: Row): Promise<string> {
    const custom = def.code === this.def.code ? this.options.insert : undefined;
    return custom ? custom(this, who, values) : this.insertRow(def, who, values);
  }

  async insertRow(def: ResourceDef, who: Account, values: Row): Promise<string> {
    const mounted = this.harness.server.ctx.resources.get(def.code);
    const id = nextId();
    const now = new Date();
    const row: Row = { createUser: null, createTime: now, updateUser: null, updateTime: now, status: 1, isDeleted: 0 };
    for (const [name, v] of Object.entries(values)) {
      const f = def.fields[name];
      if (!f || f.writeOnly) continue;
      row[name] = f.type === 'datetime' && typeof v === 'string' ? parseDateTime(v) : f.type === 'boolean' ? answered(f, v) : v;
    }
    row.id = id;
    if (def.scope === 'tenant') row.tenantId = who.tenantId;
    const columns = Object.fromEntries(Object.entries(row).filter(([k]) => Object.hasOwn(mounted.columns, k)));
    await inTenant(this.harness.server.ctx.db, { tenantId: who.tenantId }, (tx) => tx.insert(mounted.table).values(columns as never));
    return id;
  }

  async refRow(code: string, who: Account, depth = 1): Promise<{ id: string; name: string }> {
    const def = this.support.definition(code);
    await this.ensureCodes(def, who);
    // platform rows are written by the platform tenant, and seen by every tenant
    const writer = def.scope === 'platform' && who.tenantId !== PLATFORM_ADMIN.tenantId ? PLATFORM_ADMIN : who;
    const custom = this.options.refs?.[code]?.create;
    const id = custom ? await custom(this, writer) : String((await this.create({ def, who: writer, depth }))['id']);
    // the rows of a platform administrators' resource (tenant packages) are read by the writer: another
    // tenant names them without reading them
    const reader = def.platformAdminOnly ? writer : who;
    const detail = await this.call(reader, 'GET', crudPaths(def).detail, { query: { id } });
    if (detail.status !== 200) throw new Error(`conformance kit: the ${code} row ${id} made for a reference cannot be read (${detail.status})`);
    const nameField = nameFieldOf(def);
    return { id, name: String(detail.body.data[nameField] ?? id) };
  }

  /** What the API answers for the fields of a create body, `<field>Name` of dictionary fields included. */
  async expected(body: Row, who: Account): Promise<Row> {
    const out: Row = {};
    for (const [name, f] of Object.entries(this.def.fields)) {
      if (f.writeOnly || !Object.hasOwn(body, name)) continue;
      // a credential is answered masked once set (its value is never read back)
      out[name] = f.secret ? (answered(f, body[name]) === null || body[name] === '' ? null : SECRET_MASK) : answered(f, body[name]);
      if (f.dict) {
        const items = await this.support.dictionary(f.dict);
        out[dictNameKey(name)] = items.find((i) => i.dictKey === dictKeyOf(f, String(body[name])))?.dictValue ?? null;
      } else if (isRef(f)) {
        const ids = String(answered(f, body[name]) ?? '').split(',').filter((id) => id && id !== TREE_ROOT);
        const names: string[] = [];
        for (const id of ids) {
          const target = this.support.definition(f.ref!);
          const row = await this.call(who, 'GET', crudPaths(target).detail, { query: { id } });
          names.push(String(row.body.data[nameFieldOf(target)] ?? id));
        }
        out[dictNameKey(name)] = names.length ? names.join(',') : null;
      }
    }
    return out;
  }

  submit(body: Row, who: Account = this.actor, lang?: Lang): Promise<Answer> {
    return this.call(who, 'POST', crudPaths(this.def).submit, { body, lang });
  }

  detail(id: unknown, who: Account = this.actor): Promise<Answer> {
    return this.call(who, 'GET', crudPaths(this.def).detail, { query: { id: String(id) } });
  }

  remove(ids: string, who: Account | null = this.actor): Promise<Answer<boolean>> {
    return this.call<boolean>(who, 'POST', crudPaths(this.def).remove, { query: { ids } });
  }

  list(query: Record<string, string | number>, who: Account = this.actor, call = 'list'): Promise<Answer<Page<Row>>> {
    return this.call<Page<Row>>(who, 'GET', call === 'list' ? crudPaths(this.def).list : `${this.def.path}/${call}`, { query: { size: 500, ...query } });
  }

  /** The rows among `rows` a list query finds, in the order answered (flattening a nested tree answer). */
  async found(query: Record<string, string | number>, rows: Row[], who: Account = this.actor): Promise<string[]> {
    const res = await this.list({ id_in: idsIn(rows as Array<{ id: unknown }>), ...query }, who);
    expect(res.status, `${crudPaths(this.def).list} ${JSON.stringify(query)}: ${res.body.msg}`).toBe(200);
    return recordsOf(res.body.data).map((r) => String(r.id));
  }

  /**
   * A value of `name` different from `current` (the field's generated values for other rows). When the
   * options fix the value of created rows (a dictionary item that must be 0 for the rows to stay editable),
   * a second value comes from the field's own generator.
   */
  async otherValue(name: string, current: unknown, who: Account = this.actor): Promise<unknown> {
    const f = this.def.fields[name]!;
    for (const own of [false, true]) {
      for (let i = 0; i < 8; i++) {
        const v = await this.generate(this.def, name, f, who, nextSeq(), 0, own);
        if (answered(f, v) !== answered(f, current)) return v;
      }
    }
    return undefined;
  }
}

/** The records of a list answer: a page's records, or a nested tree (unpaged lists) flattened. */
export function recordsOf(data: Page<Row> | Row[]): Row[] {
  const flat = (rows: Row[]): Row[] => rows.flatMap((r) => [r, ...flat((r.children as Row[] | undefined) ?? [])]);
  return Array.isArray(data) ? flat(data) : data.records;
}

function pick(row: Row, keys: string[]): Row {
  return Object.fromEntries(keys.map((k) => [k, row[k] ?? null]));
}

function requiredMessages(def: ResourceDef, lang: Lang): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    if (!isRequired(f)) continue;
    out[name] = typeof f.required === 'object' ? t(f.required, lang) : msg('required', lang, { field: t(f.label, lang) });
  }
  return out;
}

/** A field the server sets (`form: false`: derived or generated), other than the tree's parent (the engine's tree calls take it). */
function serverSet(def: ResourceDef, name: string): boolean {
  return def.fields[name]?.form === false && def.tree?.parentField !== name;
}

/** The field an update changes: preferably plain text, never immutable, unique, a reference, the tree parent or set by the server. */
function updatableField(def: ResourceDef): string | undefined {
  const candidates = Object.entries(def.fields).filter(([name, f]) => !f.immutable && !f.writeOnly && !f.secret && def.tree?.parentField !== name && !serverSet(def, name));
  const rank = ([, f]: [string, FieldDef]) => (f.type === 'string' || f.type === 'text' ? 0 : 1) + (f.unique ? 2 : 0) + (isRef(f) ? 4 : 0);
  return candidates.sort((a, b) => rank(a) - rank(b))[0]?.[0];
}

/**
 * Generates the standard tests of a resource definition (see the file comment). Call it at the top level of
 * a test file or inside a describe; with `options.harness` several resources share one server.
 */
export function describeResource(def: ResourceDef, options: ResourceOptions = {}): void {
  checkOptions(def, options);
  describe(`resource ${def.code} (${def.path})`, () => {
    const h = options.harness ?? useServer();
    const k = new KitRun(def, h, options);
    const codes = permissionCodes(def);
    const fields = Object.entries(def.fields);
    const actor = k.actor;
    const other = k.other;

    beforeAll(async () => {
      await k.support.token(actor);
      await k.support.token(other);
      await k.ensureCodes(def, other);
      await options.setup?.(k);
    });

    /** read-only resources (logs, the attachment register) mount no submit: the groups that write through it do not apply */
    const readOnly = def.readOnly === true;
    // records written once (createOnly): submit creates, an update is refused, there is no remove
    const createOnly = def.createOnly === true;
    const removable = (!readOnly && !createOnly) || def.removable === true;
    const noSubmit = `read-only resource: no submit route (the kit inserts its rows; create, read, update, delete checks that submit answers 404)`;
    const noUpdate = 'records written once (createOnly): the crud check proves an update is refused';
    const elsewhere = options.madeElsewhere;
    const noCreate = `rows are made elsewhere (${elsewhere}): the console's create is refused (the crud check proves it)`;
    const notApplicable: Partial<Record<KitCheck, string>> = readOnly
      ? { required: noSubmit, unique: noSubmit, immutable: noSubmit }
      : elsewhere ? { required: noCreate, format: noCreate, unique: noCreate }
        : createOnly ? { immutable: noUpdate } : {};
    /** A group of tests, or one skipped test saying why when the resource skips the group. */
    const group = (check: KitCheck, title: string, body: () => void) => {
      const reason = options.skip?.[check] ?? notApplicable[check];
      describe(title, () => {
        if (reason) it.skip(`skipped: ${reason}`, () => undefined);
        else body();
      });
    };
    /** A generated test: it fails when it made no assertion. */
    const test = (title: string, fn: () => Promise<void>) => it(title, async () => {
      expect.hasAssertions();
      await fn();
    });

    // ---------------------------------------------------------------- CRUD round trip
    if (readOnly) group('crud', 'read-only: read, (remove)', () => {
      test(`an inserted row reads back through detail and list; submit answers 404${def.removable ? '; remove removes it' : ', remove too'}`, async () => {
        const body = await k.values();
        const id = await k.insert(def, actor, body);
        const expected = await k.expected(body, actor);
        const keys = Object.keys(expected);
        const detail = await k.detail(id);
        expect(detail.status, detail.body.msg).toBe(200);
        expect(pick(detail.body.data, keys), 'the detail answer').toEqual(expected);
        expect(detail.body.data.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        if (def.scope === 'tenant') expect(detail.body.data.tenantId).toBe(actor.tenantId);
        const listed = await k.list({ id_equal: id });
        expect(listed.status).toBe(200);
        const records = recordsOf(listed.body.data);
        expect(records.map((r) => String(r.id))).toEqual([id]);
        expect(pick(records[0]!, keys), 'the list answer').toEqual(expected);
        expect((await k.submit(await k.values())).status, 'create through submit').toBe(404);
        expect((await k.submit({ id, ...body })).status, 'update through submit').toBe(404);
        if (def.removable) {
          const removed = await k.remove(id);
          expect(removed.status, removed.body.msg).toBe(200);
          expect(removed.body.data).toBe(true);
          expect((await k.detail(id)).status).toBe(404);
          expect(recordsOf((await k.list({ id_equal: id })).body.data)).toHaveLength(0);
          expect((await k.remove(id)).status, 'removing it twice').toBe(404);
        } else {
          expect((await k.remove(id)).status, 'no remove route').toBe(404);
          expect((await k.detail(id)).status).toBe(200);
        }
      });
    });
    else if (elsewhere) group('crud', 'made elsewhere: read, no create, update, delete', () => {
      test(`an inserted row reads back; the console's create is refused and writes nothing; an update and a remove work as the screen allows`, async () => {
        const row = await k.create();
        const body = await k.values();
        const before = (await k.list({ size: 1 })).body.data.total;
        const made = await k.submit(body);
        expect(made.status, `create answered ${made.body.msg}`).toBeGreaterThanOrEqual(400);
        expect(made.status).toBeLessThan(500);
        expect((await k.list({ size: 1 })).body.data.total).toBe(before);
        const field = updatableField(def);
        if (field && def.buttons?.edit !== false) {
          const next = await k.otherValue(field, row[field]);
          const updated = await k.submit({ id: row.id, [field]: next });
          expect(updated.status, `update answered ${updated.body.msg} ${JSON.stringify(updated.body.data)}`).toBe(200);
          expect((await k.detail(row.id)).body.data[field]).toEqual(answered(def.fields[field]!, next));
        }
        const removed = await k.remove(String(row.id));
        if (def.buttons?.delete === false) {
          expect(removed.status).toBeGreaterThanOrEqual(400);
          expect((await k.detail(row.id)).status).toBe(200);
        } else {
          expect(removed.status, removed.body.msg).toBe(200);
          expect((await k.detail(row.id)).status).toBe(404);
        }
      });
    });
    else group('crud', 'create, read, update, delete', () => {
      test('creates with a valid value for every field, reads it back, updates one field, lists it, removes it', async () => {
        const body = await k.values();
        const created = await k.submit(body);
        expect(created.status, `create answered ${created.body.msg} ${JSON.stringify(created.body.data)}`).toBe(200);
        const row = created.body.data;
        expect(String(row.id)).toMatch(/^\d{1,19}$/);
        const expected = await k.expected(body, actor);
        const keys = Object.keys(expected);
        expect(pick(row, keys), 'the submit answer').toEqual(expected);
        if (def.scope === 'tenant') expect(row.tenantId).toBe(actor.tenantId);
        else if (!Object.hasOwn(def.fields, 'tenantId')) expect(row).not.toHaveProperty('tenantId');

        const detail = await k.detail(row.id);
        expect(detail.status).toBe(200);
        expect(pick(detail.body.data, keys), 'the detail answer').toEqual(expected);
        expect(detail.body.data.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

        const listed = await k.list({ id_equal: String(row.id) });
        expect(listed.status).toBe(200);
        const records = recordsOf(listed.body.data);
        expect(records.map((r) => String(r.id))).toEqual([String(row.id)]);
        expect(pick(records[0]!, keys), 'the list answer').toEqual(expected);

        for (const [name, f] of fields.filter(([, f]) => f.writeOnly)) {
          void f;
          for (const [where, answer] of [['submit', row], ['detail', detail.body.data], ['list', records[0]!]] as const) {
            expect(Object.keys(answer), `${where} answers the write-only field ${name}`).not.toContain(name);
          }
        }

        const field = updatableField(def);
        if (createOnly) {
          const refused = await k.submit({ id: row.id, [field ?? 'id']: body[field ?? 'id'] }, actor, 'en');
          expect(refused.status, 'an update of a record written once').toBe(400);
          expect(refused.body.msg).toBe(msg('recordNotEditable', 'en'));
          expect(pick((await k.detail(row.id)).body.data, keys)).toEqual(expected);
          if (def.removable) {
            expect((await k.remove(String(row.id))).status, 'remove (createOnly, removable)').toBe(200);
            expect((await k.detail(row.id)).status, 'detail after remove').toBe(404);
          } else expect((await k.remove(String(row.id))).status, 'no remove route').toBe(404);
          return;
        }
        if (field) {
          const next = await k.otherValue(field, body[field]);
          expect(next, `no second value for ${field}`).not.toBeUndefined();
          const updated = await k.submit({ id: row.id, [field]: next });
          expect(updated.status, `update answered ${updated.body.msg} ${JSON.stringify(updated.body.data)}`).toBe(200);
          const after = await k.expected({ ...body, [field]: next }, actor);
          expect(pick(updated.body.data, keys), 'the update answer').toEqual(after);
          expect(pick((await k.detail(row.id)).body.data, keys), 'the detail after the update').toEqual(after);
          const byField = await k.list({ id_equal: String(row.id), [`${field}_equal`]: String(answered(def.fields[field]!, next)) });
          expect(recordsOf(byField.body.data).map((r) => String(r.id)), 'the list finds the updated value').toEqual([String(row.id)]);
          for (const [name] of fields.filter(([, f]) => f.writeOnly)) expect(Object.keys(updated.body.data)).not.toContain(name);
        }

        const removed = await k.remove(String(row.id));
        expect(removed.status).toBe(200);
        expect(removed.body.data).toBe(true);
        expect((await k.detail(row.id)).status).toBe(404);
        expect(recordsOf((await k.list({ id_equal: String(row.id) })).body.data)).toHaveLength(0);
        expect((await k.remove(String(row.id))).status, 'removing it twice').toBe(404);
        expect((await k.submit({ id: row.id, [field ?? 'id']: body[field ?? 'id'] })).status, 'updating a removed row').toBe(404);
      });
    });

    // ---------------------------------------------------------------- required fields
    const required = requiredMessages(def, 'zh');
    if (Object.keys(required).length) {
      group('required', 'required fields', () => {
        for (const lang of ['zh', 'en'] as const) {
          test(`an empty create answers 400 with exactly the required messages (${lang}) and writes nothing`, async () => {
            const before = await k.list({ size: 1 });
            const res = await k.submit({}, actor, lang);
            expect(res.status).toBe(400);
            expect(res.body.data).toEqual(requiredMessages(def, lang));
            expect((await k.list({ size: 1 })).body.data.total).toBe(before.body.data.total);
          });
        }
        if (!createOnly) test('an update blanking a required field answers 400 with its message and changes nothing', async () => {
          const row = await k.create();
          const messages = requiredMessages(def, 'en');
          for (const name of Object.keys(messages)) {
            const res = await k.submit({ id: row.id, [name]: null }, actor, 'en');
            expect(res.status, name).toBe(400);
            expect(res.body.data, name).toEqual({ [name]: messages[name] });
          }
          const keys = Object.keys(messages).filter((n) => !def.fields[n]!.writeOnly);
          expect(pick((await k.detail(row.id)).body.data, keys)).toEqual(pick(row, keys));
        });
      });
    }

    // ---------------------------------------------------------------- formats
    const formatted = readOnly ? [] : fields.filter(([, f]) => f.format);
    if (formatted.length) {
      group('format', 'fields of a known shape (ip, url, mac, mobile, phone, email)', () => {
        for (const [name, f] of formatted) {
          test(`a ${name} that is not of the ${f.format} format answers 400 naming the field and writes nothing`, async () => {
            const before = (await k.list({ size: 1 })).body.data.total;
            for (const bad of ['999.1.1.1', 'javascript:alert(1)', 'zz:zz']) {
              const res = await k.submit(await k.values({ overrides: { [name]: bad } }), actor, 'en');
              expect(res.status, `${name} = ${bad}`).toBe(400);
              expect(res.body.data).toEqual({ [name]: textFormatMessage(f.format!, t(f.label, 'en'), 'en') });
            }
            expect((await k.list({ size: 1 })).body.data.total).toBe(before);
          });
        }
      });
    }

    // ---------------------------------------------------------------- unique fields
    const uniques = fields.filter(([, f]) => f.unique);
    if (uniques.length) {
      group('unique', 'unique fields', () => {
        for (const [name, f] of uniques) {
          test(`a second row with the same ${name} answers 409 naming the field; an update to it too; a removed row frees it`, async () => {
            const first = await k.create();
            const value = first[name];
            const message = msg('duplicate', 'zh', { field: t(f.label, 'zh'), value: String(answered(f, value)) });
            const before = (await k.list({ size: 1 })).body.data.total;
            const dup = await k.submit(await k.values({ overrides: { [name]: value } }));
            expect(dup.status, `${dup.body.msg}`).toBe(409);
            expect(dup.body.data).toEqual({ [name]: message });
            expect((await k.list({ size: 1 })).body.data.total).toBe(before);

            if (!f.immutable) {
              const third = await k.create();
              const renamed = await k.submit({ id: third.id, [name]: value });
              expect(renamed.status).toBe(409);
              expect(renamed.body.data).toEqual({ [name]: message });
              expect((await k.detail(third.id)).body.data[name]).toEqual(third[name]);
            }

            if (def.scope === 'tenant') {
              const elsewhere = await k.submit(await k.values({ who: other, overrides: { [name]: value } }), other);
              expect(elsewhere.status, `another tenant may use the same ${name}: ${elsewhere.body.msg}`).toBe(200);
            }
            expect((await k.remove(String(first.id))).status).toBe(200);
            const again = await k.submit(await k.values({ overrides: { [name]: value } }));
            expect(again.status, `the value is free once its row is removed: ${again.body.msg}`).toBe(200);
          });
        }
      });
    }

    // ---------------------------------------------------------------- immutable fields
    const immutables = fields.filter(([, f]) => f.immutable);
    if (immutables.length) {
      group('immutable', 'immutable fields', () => {
        for (const [name, f] of immutables) {
          test(`an update changing ${name} answers 400 naming the field; sending it unchanged is accepted`, async () => {
            const row = await k.create();
            // another parent is another row (generated values of a tree's parent are all the root)
            const next = def.tree?.parentField === name ? String((await k.create()).id) : await k.otherValue(name, row[name]);
            expect(next).not.toBeUndefined();
            const res = await k.submit({ id: row.id, [name]: next });
            expect(res.status).toBe(400);
            expect(res.body.data).toEqual({ [name]: msg('immutableField', 'zh', { field: t(f.label, 'zh') }) });
            expect((await k.detail(row.id)).body.data[name]).toEqual(row[name]);
            const same = await k.submit({ id: row.id, [name]: row[name] });
            expect(same.status, same.body.msg).toBe(200);
          });
        }
      });
    }

    // ---------------------------------------------------------------- tenants
    if (def.scope === 'tenant') {
      group('tenant', `tenant isolation (${actor.tenantId} / ${other.tenantId})`, () => {
        let mine: Row;
        let theirs: Row;
        beforeAll(async () => {
          mine = await k.create();
          theirs = await k.create({ who: other });
        });
        test('rows of one tenant are never listed to another', async () => {
          expect(await k.found({}, [mine, theirs], other)).toEqual([String(theirs.id)]);
          expect(await k.found({}, [mine, theirs], actor)).toEqual([String(mine.id)]);
          const all = recordsOf((await k.list({}, other)).body.data);
          expect(all.map((r) => String(r.id))).not.toContain(String(mine.id));
          expect(all.every((r) => r.tenantId === other.tenantId)).toBe(true);
        });
        test('detail of another tenant\'s row answers 404', async () => {
          expect((await k.detail(mine.id, other)).status).toBe(404);
          expect((await k.detail(theirs.id, actor)).status).toBe(404);
        });
        if (!readOnly) test('an update naming another tenant\'s row answers 404 and changes nothing', async () => {
          const field = updatableField(def) ?? Object.keys(def.fields)[0]!;
          const next = await k.otherValue(field, mine[field], other);
          const res = await k.submit({ id: mine.id, [field]: next }, other);
          // a record written once refuses every update before looking the row up (the crud check proves it); a screen
          // without an edit button refuses every update before it too
          expect(res.status).toBe(createOnly ? 400 : def.buttons?.edit === false ? 403 : 404);
          const still = await k.detail(mine.id);
          expect(still.body.data[field]).toEqual(mine[field]);
          expect(still.body.data.tenantId).toBe(actor.tenantId);
        });
        if (removable) test('removing another tenant\'s row answers 404 and removes nothing', async () => {
          expect((await k.remove(String(mine.id), other)).status).toBe(404);
          expect((await k.remove(`${theirs.id},${mine.id}`, other)).status).toBe(404);
          expect((await k.detail(mine.id)).status).toBe(200);
          expect((await k.detail(theirs.id, other)).status).toBe(200);
        });
        if (!readOnly && !elsewhere) test('a tenantId in the body is ignored', async () => {
          const res = await k.submit(await k.values({ who: other, overrides: { tenantId: actor.tenantId } }), other);
          expect(res.status).toBe(200);
          expect(res.body.data.tenantId).toBe(other.tenantId);
        });
        // rows made elsewhere are updated, never created, by the console: an update cannot move one to another tenant
        if (elsewhere && def.buttons?.edit !== false) test('a tenantId in an update is ignored', async () => {
          const field = updatableField(def) ?? Object.keys(def.fields)[0]!;
          const res = await k.submit({ id: theirs.id, [field]: await k.otherValue(field, theirs[field], other), tenantId: actor.tenantId }, other);
          expect(res.status, res.body.msg).toBe(200);
          expect((await k.detail(theirs.id, other)).body.data.tenantId).toBe(other.tenantId);
          expect((await k.detail(theirs.id, actor)).status).toBe(404);
        });
      });
    } else if (!readOnly || removable) {
      group('tenant', `platform data: tenant ${other.tenantId} cannot write`, () => {
        let mine: Row;
        beforeAll(async () => {
          mine = await k.create();
        });
        const platformOnly = msg('platformOnly', 'zh');
        if (!readOnly) test(`tenant ${other.tenantId} cannot create (403)`, async () => {
          const res = await k.submit(await k.values({ who: other }), other);
          expect(res.status).toBe(403);
          expect(res.body.msg).toBe(platformOnly);
        });
        if (!readOnly && !createOnly) test(`tenant ${other.tenantId} cannot update (403), nothing changes`, async () => {
          const field = updatableField(def) ?? Object.keys(def.fields)[0]!;
          const res = await k.submit({ id: mine.id, [field]: await k.otherValue(field, mine[field], other) }, other);
          expect(res.status).toBe(403);
          expect(res.body.msg).toBe(platformOnly);
          expect((await k.detail(mine.id)).body.data[field]).toEqual(mine[field]);
        });
        if (removable) test(`tenant ${other.tenantId} cannot remove (403), nothing is removed`, async () => {
          const res = await k.remove(String(mine.id), other);
          expect(res.status).toBe(403);
          expect(res.body.msg).toBe(platformOnly);
          expect((await k.detail(mine.id)).status).toBe(200);
        });
      });
    }

    // ---------------------------------------------------------------- device ownership
    const devices = options.devices;
    if (devices) {
      group('ownership', `devices: delivered to ${other.tenantId}, never another tenant's of the same product type`, () => {
        let stranger: Account;
        let owned: { sn: string; deliveryId?: string };
        let undelivered: { sn: string };
        let ownedRow: Row;
        let undeliveredRow: Row;
        const tenantRows = def.scope === 'tenant';
        const rowOf = async (who: Account, sn: string): Promise<Row> => {
          if (devices.row) return { id: await devices.row(k, who, sn) };
          return k.create({ who, overrides: { [devices.field]: sn } });
        };
        const naming = async (who: Account, sn: string) => k.submit(await k.values({ who, overrides: { [devices.field]: sn } }), who, 'en');
        beforeAll(async () => {
          stranger = await k.stranger(def);
          owned = await devices.device(k, other);
          undelivered = await devices.device(k, PLATFORM_ADMIN);
          for (const d of [owned, undelivered]) await k.shareProductType(d.sn, [other.tenantId, stranger.tenantId]);
          if (!tenantRows) {
            ownedRow = await rowOf(actor, owned.sn);
            undeliveredRow = await rowOf(actor, undelivered.sn);
          } else {
            // the owner's own row of the device: it leaves with the device
            ownedRow = await rowOf(other, owned.sn);
          }
        });
        if (tenantRows) {
          test('the tenant the device was delivered to reads its own row of it', async () => {
            expect(await k.found({}, [ownedRow], other)).toEqual([String(ownedRow.id)]);
            expect((await k.detail(ownedRow.id, other)).status).toBe(200);
          });
          if (!readOnly) test('only the tenant the device was delivered to names it; another of the same product type gets 400 naming the field', async () => {
            const theirs = await naming(stranger, owned.sn);
            expect(theirs.status, theirs.body.msg).toBe(400);
            expect(Object.keys(theirs.body.data ?? {})).toContain(devices.field);
            expect((await naming(other, undelivered.sn)).status).toBe(400);
            const mine = await naming(other, owned.sn);
            expect(mine.status, mine.body.msg).toBe(devices.again?.status ?? (devices.onePerDevice ? 409 : 200));
          });
        } else {
          test('a row of the device is read by its tenant and the platform, never by another tenant of the same product type', async () => {
            expect(await k.found({}, [ownedRow], other)).toEqual([String(ownedRow.id)]);
            expect(await k.found({}, [ownedRow], actor)).toEqual([String(ownedRow.id)]);
            expect(await k.found({}, [ownedRow], stranger)).toEqual([]);
            expect((await k.detail(ownedRow.id, other)).status).toBe(200);
            expect((await k.detail(ownedRow.id, stranger)).status).toBe(404);
          });
          test('a row of an undelivered device is no tenant\'s', async () => {
            expect(await k.found({}, [undeliveredRow], other)).toEqual([]);
            expect(await k.found({}, [undeliveredRow], stranger)).toEqual([]);
            expect((await k.detail(undeliveredRow.id, other)).status).toBe(404);
            expect((await k.detail(undeliveredRow.id)).status).toBe(200);
          });
        }
        test('once the delivery is removed, the device is its tenant\'s no more (nor its rows of it)', async () => {
          expect(owned.deliveryId, 'the device fixture answers its delivery').toBeTruthy();
          const back = await k.call(PLATFORM_ADMIN, 'POST', '/api/ymy-product/deliver/remove', { query: { ids: String(owned.deliveryId) } });
          expect(back.status, back.body.msg).toBe(200);
          if (tenantRows && !readOnly) expect((await naming(other, owned.sn)).status).toBe(400);
          const kept = tenantRows && devices.kept !== undefined;
          expect(await k.found({}, [ownedRow], other)).toEqual(kept ? [String(ownedRow.id)] : []);
          expect((await k.detail(ownedRow.id, other)).status).toBe(kept ? 200 : 404);
        });
      });
    }

    // ---------------------------------------------------------------- permission codes
    group('permissions', 'permission codes', () => {
      // the codes that have menu rows: the read code and the standard buttons the screen has
      const buttons = (['add', 'edit', 'delete', 'view'] as const).filter((b) => def.buttons?.[b] !== false);
      const all = [codes.menu, ...buttons.map((b) => codes[b])];
      const without = (code: string) => all.filter((c) => c !== code);
      const forbidden = (code: string) => msg('forbidden', 'zh', { code });
      test(`without ${codes.menu}: list, detail${readOnly ? '' : ' and submit'} answer 403`, async () => {
        const row = await k.create();
        const who = await k.userWithCodes(actor.tenantId, without(codes.menu));
        const listed = await k.list({}, who);
        expect(listed.status).toBe(403);
        expect(listed.body.msg).toBe(forbidden(codes.menu));
        expect((await k.detail(row.id, who)).status).toBe(403);
        if (!readOnly) {
          expect((await k.submit(await k.values(), who)).status).toBe(403);
          expect((await k.submit({ id: row.id }, who)).status).toBe(403);
        }
      });
      if (def.platformAdminOnly) {
        // the platform's administrators hold every code: anyone else is refused before the codes are looked at
        test(`holding every code of ${def.code} but not the platform's administrator role: every call answers 403 and changes nothing`, async () => {
          const row = await k.create();
          const before = (await k.detail(row.id)).body.data;
          const who = await k.userWithCodes(actor.tenantId, all);
          const refused = msg('platformAdminOnly', 'zh');
          const answers: Array<Answer<unknown>> = [await k.list({}, who), await k.detail(row.id, who)];
          if (!readOnly) answers.push(await k.submit(await k.values(), who), await k.submit({ id: row.id, ...pick(row, [updatableField(def) ?? 'id']) }, who));
          if (removable) answers.push(await k.remove(String(row.id), who));
          for (const res of answers) {
            expect(res.status).toBe(403);
            expect(res.body.msg).toBe(refused);
          }
          const after = await k.detail(row.id);
          expect(after.status).toBe(200);
          expect(after.body.data).toEqual(before);
        });
      } else {
        // a resource within another's screen may guard create and update with the same button
        const oneWriteCode = codes.add === codes.edit;
        if (!readOnly && !elsewhere) test(`without ${codes.add}: create answers 403 and writes nothing (${oneWriteCode ? 'update too' : 'the same user can list and update'})`, async () => {
          const who = await k.userWithCodes(actor.tenantId, without(codes.add));
          const before = (await k.list({ size: 1 }, who)).body.data.total;
          const res = await k.submit(await k.values(), who);
          expect(res.status).toBe(403);
          expect(res.body.msg).toBe(forbidden(codes.add));
          expect((await k.list({ size: 1 }, who)).body.data.total).toBe(before);
          const row = await k.create();
          if (!createOnly) expect((await k.submit({ id: row.id }, who)).status).toBe(oneWriteCode ? 403 : 200);
        });
        if (!readOnly && !createOnly && !oneWriteCode) test(`without ${codes.edit}: update answers 403 and changes nothing (the same user can create)`, async () => {
          const row = await k.create();
          const who = await k.userWithCodes(actor.tenantId, without(codes.edit));
          const field = updatableField(def) ?? Object.keys(def.fields)[0]!;
          const res = await k.submit({ id: row.id, [field]: await k.otherValue(field, row[field]) }, who);
          expect(res.status).toBe(403);
          expect(res.body.msg).toBe(forbidden(codes.edit));
          expect((await k.detail(row.id)).body.data[field]).toEqual(row[field]);
          if (!elsewhere) expect((await k.submit(await k.values(), who)).status).toBe(200);
        });
        if (removable) test(`without ${codes.delete}: remove answers 403 and removes nothing (the same user can read)`, async () => {
          const row = await k.create();
          const who = await k.userWithCodes(actor.tenantId, without(codes.delete));
          const res = await k.remove(String(row.id), who);
          expect(res.status).toBe(403);
          expect(res.body.msg).toBe(forbidden(codes.delete));
          expect((await k.detail(row.id, who)).status).toBe(200);
        });
      }
      test(`without a token: list, detail${readOnly ? '' : ', submit'}${removable ? ' and remove' : ''} answer 401`, async () => {
        const row = await k.create();
        expect((await k.call(null, 'GET', crudPaths(def).list)).status).toBe(401);
        expect((await k.call(null, 'GET', crudPaths(def).detail, { query: { id: String(row.id) } })).status).toBe(401);
        if (!readOnly) expect((await k.call(null, 'POST', crudPaths(def).submit, { body: await k.values() })).status).toBe(401);
        if (removable) expect((await k.call(null, 'POST', crudPaths(def).remove, { query: { ids: String(row.id) } })).status).toBe(401);
        expect((await k.detail(row.id)).status).toBe(200);
      });
    });

    // ---------------------------------------------------------------- search
    const searchable = { ...Object.fromEntries(fields.filter(([, f]) => f.search && !f.writeOnly)), createTime: SYSTEM_FIELDS.createTime } as Record<string, FieldDef>;
    group('search', 'search fields', () => {
      for (const [name, f] of Object.entries(searchable)) {
        if (name === 'createTime') {
          test('createTime (dateRange): _datege/_datele bound the creation time', async () => {
            const rows = [await k.create(), await k.create()];
            expect(await k.found({ createTime_datege: '2000-01-01 00:00:00', createTime_datele: '2999-12-31 23:59:59' }, rows)).toHaveLength(2);
            expect(await k.found({ createTime_datele: '2000-01-01 00:00:00' }, rows)).toEqual([]);
            expect(await k.found({ createTime_datege: '2999-01-01 00:00:00' }, rows)).toEqual([]);
            const first = String(rows[0]!.createTime);
            expect(await k.found({ createTime_datege: first }, rows)).toHaveLength(2);
          });
          continue;
        }
        if (f.search === 'like') {
          test(`${name} (like): a substring finds exactly the matching row`, async () => {
            const rows = [await k.create(), await k.create()];
            const value = String(rows[0]![name]);
            const part = value.length > 3 ? value.slice(1) : value;
            expect(part, `${name} values must be long enough to search`).not.toBe('');
            expect(await k.found({ [name]: part }, rows)).toEqual([String(rows[0]!.id)]);
            expect(await k.found({ [`${name}_like`]: part }, rows)).toEqual([String(rows[0]!.id)]);
            expect(await k.found({ [name]: part.toUpperCase() }, rows), 'case-insensitive').toEqual([String(rows[0]!.id)]);
            expect(await k.found({ [name]: `zz${tagOf(nextSeq())}` }, rows)).toEqual([]);
          });
        } else if (f.search === 'prefix') {
          test(`${name} (prefix): the value's start finds exactly the matching row, in any case; its middle does not`, async () => {
            const rows = [await k.create(), await k.create()];
            const value = String(rows[0]![name]);
            expect(value.length, `${name} values must be long enough to search`).toBeGreaterThan(3);
            expect(f.upperCase, `${name}: a prefix search is for codes kept in capitals`).toBe(true);
            expect(await k.found({ [`${name}_likeright`]: value }, rows)).toEqual([String(rows[0]!.id)]);
            expect(await k.found({ [`${name}_likeright`]: value.slice(0, -1).toLowerCase() }, rows)).toContain(String(rows[0]!.id));
            expect(await k.found({ [`${name}_likeright`]: value.slice(1) }, rows)).not.toContain(String(rows[0]!.id));
          });
        } else if (f.search === 'equal' && !readOnly && serverSet(def, name)) {
          // the server sets the value (form: false): the rows hold what it gave them (a tree's child gets another level)
          test(`${name} (equal, set by the server): an exact value finds exactly the rows holding it`, async () => {
            const a = await k.create();
            const b = def.tree ? await k.create({ overrides: { [def.tree.parentField]: String(a.id) } }) : await k.create();
            for (const r of [a, b]) {
              expect(r[name], `${name} of a created row`).not.toBeNull();
              const holding = [a, b].filter((x) => String(x[name]) === String(r[name])).map((x) => String(x.id));
              expect((await k.found({ [`${name}_equal`]: String(r[name]) }, [a, b])).sort()).toEqual(holding.sort());
            }
          });
        } else if (f.search === 'equal') {
          test(`${name} (equal): an exact value finds exactly the matching row`, async () => {
            const a = await k.create();
            const text = f.type === 'string' || f.type === 'text' || f.type === 'richtext';
            // a value of a shape of its own (the options' source: a region path) is not lengthened: the source gives another
            const longer = text && !f.dict && !options.values?.[name] ? `x${String(a[name])}` : undefined;
            const bValue = longer !== undefined && (f.max === undefined || longer.length <= f.max) ? longer : await k.otherValue(name, a[name]);
            expect(bValue, `no second value for ${name}`).not.toBeUndefined();
            const b = await k.create({ overrides: { [name]: bValue } });
            expect(await k.found({ [`${name}_equal`]: String(a[name]) }, [a, b])).toEqual([String(a.id)]);
            expect(await k.found({ [`${name}_equal`]: String(b[name]) }, [a, b])).toEqual([String(b.id)]);
            if (!text) expect(await k.found({ [name]: String(a[name]) }, [a, b])).toEqual([String(a.id)]);
          });
        } else if (f.search === 'dateRange') {
          test(`${name} (dateRange): _datege/_datele bound the value`, async () => {
            const day = (y: number) => (f.type === 'date' ? `${y}-03-15` : `${y}-03-15 10:00:00`);
            const bound = (y: number) => (f.type === 'date' ? `${y}-09-01` : `${y}-09-01 00:00:00`);
            const rows = [await k.create({ overrides: { [name]: day(2021) } }), await k.create({ overrides: { [name]: day(2022) } }), await k.create({ overrides: { [name]: day(2023) } })];
            const [r1, r2, r3] = rows.map((r) => String(r.id));
            expect(await k.found({ [`${name}_datege`]: bound(2021), [`${name}_datele`]: bound(2022) }, rows)).toEqual([r2]);
            expect((await k.found({ [`${name}_datege`]: bound(2021) }, rows)).sort()).toEqual([r2, r3].sort());
            expect((await k.found({ [`${name}_datele`]: bound(2022) }, rows)).sort()).toEqual([r1, r2].sort());
            expect(await k.found({ [`${name}_datele`]: day(2021) }, rows), '_datele includes its bound').toEqual([r1]);
          });
        } else if (f.search === 'region') {
          // the values are region paths; a region's code finds the rows of that region and of every region under it
          test(`${name} (region): the last code of a row's path finds the rows in that region or under it; an unknown code none`, async () => {
            const a = await k.create();
            const b = await k.create({ overrides: { [name]: await k.otherValue(name, a[name]) } });
            const rows = [a, b];
            const within = (path: string, r: Row) => String(r[name]) === path || String(r[name]).startsWith(`${path},`);
            for (const r of rows) {
              const path = String(r[name]);
              const holding = rows.filter((x) => within(path, x)).map((x) => String(x.id));
              expect((await k.found({ [`${name}_likeright`]: path.split(',').at(-1)! }, rows)).sort(), path).toEqual(holding.sort());
            }
            expect(await k.found({ [`${name}_likeright`]: '000000' }, rows)).toEqual([]);
          });
        } else {
          test(`${name}: declares a search kind the kit knows`, async () => {
            expect(['like', 'prefix', 'equal', 'dateRange', 'region']).toContain(f.search);
          });
        }
      }
      test('an unknown filter, a write-only field and an unknown operator answer 400', async () => {
        const res = await k.list({ kitNoSuchField: 'x' });
        expect(res.status).toBe(400);
        expect(res.body.msg).toBe(msg('unknownFilter', 'zh', { field: 'kitNoSuchField' }));
        for (const [name] of fields.filter(([, f]) => f.writeOnly)) expect((await k.list({ [name]: 'x' })).status, name).toBe(400);
        const known = Object.keys(filterableFields(def))[0]!;
        expect((await k.list({ [`${known}_kitop`]: 'x' })).status).toBe(400);
      });
    });

    // ---------------------------------------------------------------- sort
    group('sort', 'sort keys', () => {
      // an append-only resource's table need not have updateTime (docs/resource-engine.md, read-only resources)
      const keys = sortableFields(def).filter((key) => removable || key !== 'updateTime');
      let rows: Row[] = [];
      beforeAll(async () => {
        // values grow with n; the rows are created in the order n+1, n+2, n so that neither the default
        // order (newest first) nor its reverse is sorted by any field
        const n = nextSeq();
        nextSeq();
        nextSeq();
        rows = [];
        for (const i of [1, 2, 0]) rows.push(await k.create({ n: n + i }));
        // the audit times, set apart by days: createTime in the order of n, updateTime in yet another order
        const mounted = h.server.ctx.resources.get(def.code);
        const times = [['2020-01-02', '2020-02-03'], ['2020-01-03', '2020-02-01'], ['2020-01-01', '2020-02-02']] as const;
        await inTenant(h.server.ctx.db, { tenantId: actor.tenantId }, async (tx) => {
          for (const [i, r] of rows.entries()) {
            const audit: Row = { createTime: new Date(`${times[i]![0]}T08:00:00Z`) };
            if (mounted.columns.updateTime) audit.updateTime = new Date(`${times[i]![1]}T08:00:00Z`);
            await tx.update(mounted.table).set(audit as never)
              .where(and(mounted.def.scope === 'tenant' && mounted.columns.tenantId ? eq(mounted.columns.tenantId, actor.tenantId) : undefined, eq(mounted.columns.id!, String(r.id))));
          }
        });
      });
      for (const key of keys) {
        const f = (def.fields[key] ?? SYSTEM_FIELDS[key as keyof typeof SYSTEM_FIELDS]) as FieldDef | undefined;
        for (const order of ['asc', 'desc'] as const) {
          test(`${key} sorts ${order} (${order}s=${key})`, async () => {
            const res = await k.list({ id_in: idsIn(rows as Array<{ id: unknown }>), [`${order}s`]: key });
            expect(res.status, res.body.msg).toBe(200);
            const got = recordsOf(res.body.data);
            expect(got).toHaveLength(rows.length);
            const values = got.map((r) => r[key]);
            const sorted = [...values].sort((a, b) => compare(f, a, b) * (order === 'asc' ? 1 : -1));
            expect(values).toEqual(sorted);
            expect(new Set(values.map(String)).size, `the kit's rows should differ in ${key}`).toBeGreaterThan(1);
          });
        }
      }
      test('an unknown sort key, a field not declared sortable and a write-only field answer 400', async () => {
        const res = await k.list({ ascs: 'kitNoSuchField' });
        expect(res.status).toBe(400);
        expect(res.body.msg).toBe(msg('unknownSort', 'zh', { field: 'kitNoSuchField' }));
        expect((await k.list({ descs: 'kitNoSuchField' })).status).toBe(400);
        for (const [name] of fields.filter(([n]) => !keys.includes(n))) {
          expect((await k.list({ descs: name })).status, name).toBe(400);
        }
      });
    });

    // ---------------------------------------------------------------- tree
    if (def.tree) {
      const tree = def.tree;
      const P = tree.parentField;
      group('tree', 'tree', () => {
        let a: Row; let b: Row; let c: Row;
        const ancestors = async (row: Row): Promise<string | undefined> => {
          if (!tree.ancestorsColumn) return undefined;
          const mounted = h.server.ctx.resources.get(def.code);
          const col = mounted.columns[tree.ancestorsColumn]!;
          const [hit] = await inTenant(h.server.ctx.db, { tenantId: actor.tenantId }, (tx) =>
            tx.select({ v: col }).from(mounted.table).where(and(mounted.def.scope === 'tenant' && mounted.columns.tenantId ? eq(mounted.columns.tenantId, actor.tenantId) : undefined, eq(mounted.columns.id!, String(row.id)))));
          return String(hit?.v);
        };
        beforeAll(async () => {
          a = await k.create({ overrides: { [P]: TREE_ROOT } });
          b = await k.create({ overrides: { [P]: String(a.id) } });
          c = await k.create({ overrides: { [P]: String(b.id) } });
        });
        test('a child names its parent and gets its ancestors', async () => {
          expect(String((await k.detail(b.id)).body.data[P])).toBe(String(a.id));
          expect(String(a[P])).toBe(TREE_ROOT);
          if (tree.ancestorsColumn) {
            expect(await ancestors(a)).toBe(TREE_ROOT);
            expect(await ancestors(b)).toBe(`${TREE_ROOT},${a.id}`);
            expect(await ancestors(c)).toBe(`${TREE_ROOT},${a.id},${b.id}`);
          }
        });
        if (def.fields[P]?.immutable) test(`${P} is immutable: moving a node answers 400 naming it and changes nothing`, async () => {
          const p = await k.create({ overrides: { [P]: TREE_ROOT } });
          const q = await k.create({ overrides: { [P]: TREE_ROOT } });
          const r = await k.create({ overrides: { [P]: String(q.id) } });
          const immutable = msg('immutableField', 'zh', { field: t(def.fields[P]!.label, 'zh') });
          for (const [row, target] of [[q, String(p.id)], [r, TREE_ROOT], [p, String(p.id)]] as const) {
            const res = await k.submit({ id: row.id, [P]: target });
            expect(res.status).toBe(400);
            expect(res.body.data).toEqual({ [P]: immutable });
          }
          expect(String((await k.detail(q.id)).body.data[P])).toBe(TREE_ROOT);
          expect(String((await k.detail(r.id)).body.data[P])).toBe(String(q.id));
          if (tree.ancestorsColumn) expect(await ancestors(r)).toBe(`${TREE_ROOT},${q.id}`);
        });
        else test('moving a node under itself or its descendant answers 400; a move carries its subtree', async () => {
          // a chain of its own: the other tree tests keep a › b › c as created
          const p = await k.create({ overrides: { [P]: TREE_ROOT } });
          const q = await k.create({ overrides: { [P]: String(p.id) } });
          const r = await k.create({ overrides: { [P]: String(q.id) } });
          const self = msg('treeParentSelf', 'zh');
          for (const target of [r, q, p]) {
            const res = await k.submit({ id: p.id, [P]: String(target.id) });
            expect(res.status).toBe(400);
            expect(res.body.data).toEqual({ [P]: self });
          }
          expect(String((await k.detail(p.id)).body.data[P])).toBe(TREE_ROOT);
          const e = await k.create({ overrides: { [P]: TREE_ROOT } });
          const moved = await k.submit({ id: q.id, [P]: String(e.id) });
          expect(moved.status).toBe(200);
          expect(String(moved.body.data[P])).toBe(String(e.id));
          if (tree.ancestorsColumn) {
            expect(await ancestors(q)).toBe(`${TREE_ROOT},${e.id}`);
            expect(await ancestors(r)).toBe(`${TREE_ROOT},${e.id},${q.id}`);
          }
          const kids = await k.call<Row[]>(actor, 'GET', `${def.path}/lazy-tree`, { query: { parentId: String(p.id) } });
          expect(kids.body.data).toEqual([]);
          expect((await k.submit({ id: q.id, [P]: TREE_ROOT })).status).toBe(200);
          if (tree.ancestorsColumn) expect(await ancestors(r)).toBe(`${TREE_ROOT},${q.id}`);
        });
        test('removing a node that has children answers 400; with its children it is removed', async () => {
          const res = await k.remove(String(b.id));
          expect(res.status).toBe(400);
          expect(res.body.data).toHaveProperty('ids');
          expect((await k.detail(b.id)).status).toBe(200);
          const x = await k.create({ overrides: { [P]: TREE_ROOT } });
          const y = await k.create({ overrides: { [P]: String(x.id) } });
          expect((await k.remove(`${x.id},${y.id}`)).status).toBe(200);
          expect((await k.detail(x.id)).status).toBe(404);
        });
        test('a parent that does not exist (or is another tenant\'s) answers 400 naming the field', async () => {
          const res = await k.submit(await k.values({ overrides: { [P]: MISSING_ID } }));
          expect(res.status).toBe(400);
          expect(Object.keys(res.body.data ?? {})).toContain(P);
          const moved = await k.submit({ id: c.id, [P]: MISSING_ID });
          expect(moved.status).toBe(400);
          expect(Object.keys(moved.body.data ?? {})).toContain(P);
          if (def.scope === 'tenant') {
            const theirs = await k.create({ who: other, overrides: { [P]: TREE_ROOT } });
            const cross = await k.submit(await k.values({ overrides: { [P]: String(theirs.id) } }));
            expect(cross.status).toBe(400);
            expect(Object.keys(cross.body.data ?? {})).toContain(P);
          }
        });
        const label = nameFieldOf(def);
        const findNode = (nodes: Row[], id: unknown): Row | undefined => {
          for (const n of nodes) {
            if (String(n.id) === String(id)) return n;
            const hit = findNode((n.children as Row[] | undefined) ?? [], id);
            if (hit) return hit;
          }
          return undefined;
        };
        test('tree answers the nested nodes {id, parentId, title, key, value, hasChildren}', async () => {
          const res = await k.call<Row[]>(actor, 'GET', `${def.path}/tree`);
          expect(res.status).toBe(200);
          const nodeA = findNode(res.body.data, a.id);
          expect(nodeA).toMatchObject({ id: String(a.id), parentId: TREE_ROOT, title: String(a[label]), key: String(a.id), value: String(a.id), hasChildren: true });
          expect(res.body.data.map((n) => String(n.id))).toContain(String(a.id));
          const nodeB = ((nodeA?.children as Row[]) ?? []).find((n) => String(n.id) === String(b.id));
          expect(nodeB).toMatchObject({ parentId: String(a.id), hasChildren: true });
          expect(((nodeB?.children as Row[]) ?? []).map((n) => String(n.id))).toEqual([String(c.id)]);
          if (def.scope === 'tenant') {
            expect(findNode((await k.call<Row[]>(other, 'GET', `${def.path}/tree`)).body.data, a.id), 'another tenant\'s tree').toBeUndefined();
          }
        });
        test('lazy-tree answers the children of parentId (the roots without it)', async () => {
          const kids = await k.call<Row[]>(actor, 'GET', `${def.path}/lazy-tree`, { query: { parentId: String(a.id) } });
          expect(kids.status).toBe(200);
          expect(kids.body.data.map((n) => String(n.id))).toEqual([String(b.id)]);
          expect(kids.body.data[0]).toMatchObject({ parentId: String(a.id), title: String(b[label]), hasChildren: true });
          const roots = (await k.call<Row[]>(actor, 'GET', `${def.path}/lazy-tree`)).body.data.map((n) => String(n.id));
          expect(roots).toContain(String(a.id));
          expect(roots).not.toContain(String(b.id));
          expect((await k.call(actor, 'GET', `${def.path}/lazy-tree`, { query: { parentId: 'x' } })).status).toBe(400);
        });
        test('lazy-list answers the children of parentId as records with hasChildren', async () => {
          const res = await k.call<Row[]>(actor, 'GET', `${def.path}/lazy-list`, { query: { parentId: String(a.id) } });
          expect(res.status).toBe(200);
          expect(res.body.data.map((r) => String(r.id))).toEqual([String(b.id)]);
          expect(res.body.data[0]).toMatchObject({ id: String(b.id), hasChildren: true });
          const leaf = await k.call<Row[]>(actor, 'GET', `${def.path}/lazy-list`, { query: { parentId: String(b.id) } });
          expect(leaf.body.data.map((r) => [String(r.id), r.hasChildren])).toEqual([[String(c.id), false]]);
        });
        test('parent-list pages the roots; child-list the children of parentId', async () => {
          const ids = idsIn([a, b, c] as Array<{ id: unknown }>);
          const roots = await k.list({ id_in: ids }, actor, 'parent-list');
          expect(roots.status).toBe(200);
          expect(roots.body.data.records.map((r) => String(r.id))).toEqual([String(a.id)]);
          const kids = await k.list({ id_in: ids, parentId: String(b.id) }, actor, 'child-list');
          expect(kids.status).toBe(200);
          expect(kids.body.data.records.map((r) => String(r.id))).toEqual([String(c.id)]);
          expect(kids.body.data.total).toBe(1);
        });
        test(`list answers ${tree.unpagedList ? 'the matching rows nested as a tree (unpaged)' : 'pages of records with hasChildren'}`, async () => {
          const res = await k.call<Page<Row> | Row[]>(actor, 'GET', crudPaths(def).list);
          expect(res.status).toBe(200);
          if (tree.unpagedList) {
            expect(Array.isArray(res.body.data)).toBe(true);
            const nodeA = findNode(res.body.data as Row[], a.id);
            expect(((nodeA?.children as Row[]) ?? []).map((r) => String(r.id))).toEqual([String(b.id)]);
          } else {
            const page = await k.list({ id_in: idsIn([a, c] as Array<{ id: unknown }>) });
            const byId = new Map(page.body.data.records.map((r) => [String(r.id), r.hasChildren]));
            expect(byId.get(String(a.id))).toBe(true);
            expect(byId.get(String(c.id))).toBe(false);
          }
        });
      });
    }

    // ---------------------------------------------------------------- references
    const refs = fields.filter(([name, f]) => isRef(f) && !f.writeOnly && !options.serverRefs?.[name]);
    if (refs.length) {
      group('refs', 'references', () => {
        for (const [name, f] of refs) {
          const target = () => k.support.definition(f.ref!);
          if (!readOnly && !elsewhere) test(`${name} → ${f.ref}: a missing row answers 400 naming the field`, async () => {
            const message = msg('refMissing', 'zh', { field: t(f.label, 'zh') });
            const missing = f.type === 'ids' ? `${(await k.refRow(f.ref!, actor)).id},${MISSING_ID}` : MISSING_ID;
            const res = await k.submit(await k.values({ overrides: { [name]: missing } }));
            expect(res.status).toBe(400);
            expect(res.body.data).toEqual({ [name]: message });
            if (!createOnly) {
              const row = await k.create();
              const upd = await k.submit({ id: row.id, [name]: missing });
              expect(upd.status).toBe(400);
              // an immutable reference is refused as a change before it is looked up
              expect(upd.body.data).toEqual({ [name]: f.immutable ? msg('immutableField', 'zh', { field: t(f.label, 'zh') }) : message });
            }
            if (target().scope === 'tenant') {
              const theirs = await k.refRow(f.ref!, other);
              const cross = await k.submit(await k.values({ overrides: { [name]: theirs.id } }));
              expect(cross.status, 'a row of another tenant').toBe(400);
              expect(cross.body.data).toEqual({ [name]: message });
            }
          });
          test(`${name} → ${f.ref}: answers carry ${dictNameKey(name)}, the referenced row's name`, async () => {
            const one = await k.refRow(f.ref!, actor);
            const value = f.type === 'ids' ? `${one.id},${(await k.refRow(f.ref!, actor)).id}` : one.id;
            const row = await k.create({ overrides: { [name]: value } });
            const names = (await k.expected({ [name]: value }, actor))[dictNameKey(name)];
            expect(names).toContain(one.name);
            expect(row[dictNameKey(name)]).toBe(names);
            expect((await k.detail(row.id)).body.data[dictNameKey(name)]).toBe(names);
            const listed = recordsOf((await k.list({ id_equal: String(row.id) })).body.data);
            expect(listed[0]?.[dictNameKey(name)]).toBe(names);
          });
        }
      });
    }
  });
}


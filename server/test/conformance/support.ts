import { crudPaths, type FieldDef, type Page, resources, type ResourceDef } from '@console/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { inTenant, schema } from '../../src/core/db/index.js';
import { nextId, splitList } from '../../src/core/ids.js';
import type { CallOptions, Harness } from '../harness.js';

/** Who a call runs as: a user of a tenant, signed in with the password grant. */
export interface Account {
  tenantId: string;
  account: string;
  password: string;
}

/** The platform's administrator (tenant 000000) and the demo tenant's (541742), both seeded. */
export const PLATFORM_ADMIN: Account = { tenantId: '000000', account: 'admin', password: 'admin' };
export const DEMO_ADMIN: Account = { tenantId: '541742', account: 'admin', password: 'admin' };

export type Row = Record<string, unknown>;
export type Answer<T = Row> = { status: number; body: { code: number; success: boolean; msg: string; data: T } };

/** Distinguishes this run's values from any other's (the kit's values are unique per call). */
const RUN = Math.random().toString(36).slice(2, 6).padEnd(4, '0');
let counter = 0;
/** A fresh number for each generated value. */
export function nextSeq(): number {
  return ++counter;
}
/** A fixed-width tag for a number: two tags never contain one another. */
export function tagOf(n: number): string {
  return `${RUN}${n.toString(36).padStart(4, '0')}`;
}

/**
 * The server-side helpers of the kit: calls as an account, grants, users holding exactly some permission
 * codes, dictionary items and rows of any resource created through its own submit.
 */
export class KitSupport {
  private readonly tokens = new Map<string, Promise<string>>();
  private readonly dicts = new Map<string, Promise<Array<{ dictKey: string; dictValue: string }>>>();

  constructor(readonly h: Harness) {}

  token(who: Account): Promise<string> {
    const key = `${who.tenantId}/${who.account}`;
    let hit = this.tokens.get(key);
    if (!hit) {
      hit = this.h.login(who.tenantId, who.account, who.password).then((r) => r.access_token);
      hit.catch(() => this.tokens.delete(key));
      this.tokens.set(key, hit);
    }
    return hit;
  }

  async call<T = Row>(who: Account | null, method: 'GET' | 'POST', url: string, opts: Omit<CallOptions, 'token'> = {}): Promise<Answer<T>> {
    const token = who ? await this.token(who) : undefined;
    const res = await this.h.call<T>(method, url, { ...opts, token });
    return { status: res.status, body: res.body };
  }

  /** A resource definition by code: the contract's, else whatever the server mounted under that code. */
  definition(code: string): ResourceDef {
    const fromContract = (resources as Record<string, ResourceDef>)[code];
    if (fromContract) return fromContract;
    if (this.h.server.ctx.resources.has(code)) return this.h.server.ctx.resources.get(code).def;
    throw new Error(`conformance kit: no resource definition with code ${code}`);
  }

  dictionary(code: string): Promise<Array<{ dictKey: string; dictValue: string }>> {
    let hit = this.dicts.get(code);
    if (!hit) {
      hit = this.call<Array<{ dictKey: string; dictValue: string }>>(PLATFORM_ADMIN, 'GET', '/api/blade-system/dict/dictionary', { query: { code } })
        .then((r) => {
          if (r.status !== 200 || !Array.isArray(r.body.data) || r.body.data.length === 0) {
            throw new Error(`conformance kit: dictionary ${code} has no items (${r.status} ${r.body.msg})`);
          }
          return r.body.data;
        });
      this.dicts.set(code, hit);
    }
    return hit;
  }

  /** Grants the menu/button rows with these codes to every role of the account (as param.test.ts does). */
  async grant(who: Account, codes: string[]): Promise<void> {
    await inTenant(this.h.server.ctx.db, { tenantId: who.tenantId }, async (tx) => {
      const [user] = await tx.select().from(schema.user).where(and(eq(schema.user.tenantId, who.tenantId), eq(schema.user.account, who.account), eq(schema.user.isDeleted, 0)));
      if (!user) throw new Error(`conformance kit: no user ${who.tenantId}/${who.account}`);
      const menus = codes.length ? await tx.select({ id: schema.menu.id }).from(schema.menu).where(and(inArray(schema.menu.code, codes), eq(schema.menu.isDeleted, 0))) : [];
      for (const roleId of splitList(user.roleId)) {
        if (menus.length) await tx.insert(schema.roleMenu).values(menus.map((m) => ({ roleId, menuId: m.id }))).onConflictDoNothing();
      }
    });
    await this.h.server.ctx.permissions.invalidate();
  }

  /** A new user of the tenant whose one role holds exactly these permission codes. */
  async userWithCodes(tenantId: string, codes: string[]): Promise<Account> {
    const tag = tagOf(nextSeq());
    const alias = `kit_${tag}`;
    await inTenant(this.h.server.ctx.db, { tenantId }, async (tx) => {
      const roleId = nextId();
      await tx.insert(schema.role).values({ id: roleId, tenantId, roleName: alias, roleAlias: alias });
      const menus = codes.length ? await tx.select({ id: schema.menu.id, code: schema.menu.code }).from(schema.menu).where(and(inArray(schema.menu.code, codes), eq(schema.menu.isDeleted, 0))) : [];
      const missing = codes.filter((c) => !menus.some((m) => m.code === c));
      if (missing.length) throw new Error(`conformance kit: no menu rows for ${missing.join(', ')}`);
      if (menus.length) await tx.insert(schema.roleMenu).values(menus.map((m) => ({ roleId, menuId: m.id })));
    });
    await this.h.server.ctx.permissions.invalidate();
    const who = { tenantId, account: `kit${tag}`, password: `Kit-${tag}` };
    await this.h.createUser(tenantId, who.account, who.password, [alias]);
    return who;
  }

  private stranger?: Promise<string>;

  /** A third tenant (no package: it may hold any code), made once per server through the tenant screen. */
  strangerTenant(): Promise<string> {
    this.stranger ??= this.call<Row>(PLATFORM_ADMIN, 'POST', '/api/blade-system/tenant/submit', {
      body: { tenantName: `第三租户${tagOf(nextSeq())}`, linkman: '王五', accountNumber: -1 },
    }).then((r) => {
      if (r.status !== 200) throw new Error(`conformance kit: the stranger tenant cannot be made (${r.status} ${r.body.msg})`);
      return String(r.body.data.tenantId);
    });
    return this.stranger;
  }

  /** Authorises the tenants for the product type of the device with this SN (platform data, written as the platform). */
  async shareProductType(sn: string, tenantIds: string[]): Promise<void> {
    await inTenant(this.h.server.ctx.db, { tenantId: PLATFORM_ADMIN.tenantId }, async (tx) => {
      for (const tenantId of tenantIds) {
        await tx.execute(sql`
          insert into ymy_product_auth (id, tenant_id, type_id)
          select ${nextId()}::bigint, ${tenantId}, p.type_id from ymy_factory_device d join ymy_product p on p.id = d.product_id
          where d.sn = ${sn} and not exists (select 1 from ymy_product_auth a where a.tenant_id = ${tenantId} and a.type_id = p.type_id)`);
      }
    });
  }

  /** Rows of `def` as `who` sees them among `ids` (list filtered by id_in). */
  async listIds(def: ResourceDef, who: Account, query: Record<string, string | number>, path = crudPaths(def).list): Promise<Answer<Page<Row>>> {
    return this.call<Page<Row>>(who, 'GET', path, { query: { size: 500, ...query } });
  }
}

/** Whether a field is a reference (`ref`, or `ids` naming a resource). */
export function isRef(f: FieldDef): boolean {
  return (f.type === 'ref' || f.type === 'ids') && f.ref !== undefined;
}

export function idsIn(rows: Array<{ id: unknown } | string>): string {
  return rows.map((r) => (typeof r === 'string' ? r : String(r.id))).join(',');
}

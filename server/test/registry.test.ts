import { crudPaths, MENU_DIRECTORIES, permissionCodes, resources, type ResourceDef } from '@console/contract';
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/core/db/index.js';
import { PLATFORM_TABLES_WITH_TENANT_ID, secureTenantTables } from '../src/core/db/tenantSecurity.js';
import { areaResources, AREAS } from '../src/areas/index.js';
import { useServer } from './harness.js';

/**
 * The registry of resources holds together: every definition of the contract is bound to one table by one
 * module, the table and its columns exist, the menu rows and buttons were seeded, actions name codes a role
 * can be granted, and every tenant table is under row-level security.
 */
const h = useServer();
const defs = Object.values(resources) as ResourceDef[];
const bindings = areaResources();

type Rows<T> = { rows: T[] };
async function query<T>(q: ReturnType<typeof sql>): Promise<T[]> {
  return ((await h.server.ctx.db.execute(q)) as unknown as Rows<T>).rows;
}

let columnsByTable: Map<string, Set<string>>;
let menus: Array<{ id: string; parent_id: string; code: string; category: number; is_deleted: number; path: string | null }>;

beforeAll(async () => {
  const cols = await query<{ table_name: string; column_name: string }>(
    sql`select table_name, column_name from information_schema.columns where table_schema = 'public'`,
  );
  columnsByTable = new Map();
  for (const c of cols) {
    if (!columnsByTable.has(c.table_name)) columnsByTable.set(c.table_name, new Set());
    columnsByTable.get(c.table_name)!.add(c.column_name);
  }
  menus = (await query<{ id: unknown; parent_id: unknown; code: string; category: number; is_deleted: number; path: string | null }>(
    sql`select id, parent_id, code, category, is_deleted, path from blade_menu where is_deleted = 0`,
  )).map((m) => ({ ...m, id: String(m.id), parent_id: String(m.parent_id) }));
});

describe('resource registry', () => {
  it('binds every definition of the contract in exactly one area, and binds nothing else', () => {
    for (const def of defs) {
      const owners = AREAS.filter((m) => (m.resources ?? []).some((b) => b.def.code === def.code)).map((m) => m.name);
      const times = bindings.filter((b) => b.def.code === def.code).length;
      expect({ code: def.code, owners, times }).toEqual({ code: def.code, owners: [expect.any(String)], times: 1 });
      expect(bindings.find((b) => b.def.code === def.code)!.def, `${def.code}: the bound definition is the contract's`).toBe(def);
    }
    expect(bindings.map((b) => b.def.code).filter((c) => !defs.some((d) => d.code === c)), 'bound but not in the contract').toEqual([]);
    const keys = Object.entries(resources).filter(([key, def]) => key !== def.code);
    expect(keys, 'the contract keys resources by their code').toEqual([]);
  });

  it('gives every resource a distinct code, API calls and menu route', () => {
    const calls = (d: ResourceDef) => Object.values(crudPaths(d)).join(' ');
    for (const pick of [(d: ResourceDef) => d.code, calls, (d: ResourceDef) => d.menu?.route]) {
      const values = defs.map(pick).filter((v) => v !== undefined);
      expect(values.filter((v, i) => values.indexOf(v) !== i)).toEqual([]);
    }
  });

  describe.each(bindings.map((b) => [b.def.code, b] as const))('%s', (code, binding) => {
    const def = binding.def;
    const table = getTableName(binding.table);
    const columns = getTableColumns(binding.table);

    it(`has its table (${table}) and a column for every field that is not write-only nor virtual`, () => {
      const inDb = columnsByTable.get(table);
      expect(inDb, `table ${table} in the database`).toBeDefined();
      const missing: string[] = [];
      for (const [name, f] of Object.entries(def.fields)) {
        if (f.writeOnly || f.virtual) {
          expect(columns[name], `${code}.${name} is ${f.writeOnly ? 'write-only' : 'virtual'}: it is not a column`).toBeUndefined();
          continue;
        }
        const column = columns[name];
        if (!column || !inDb!.has(column.name)) missing.push(name);
      }
      expect(missing, `${code}: fields without a column`).toEqual([]);
      // an append-only resource (readOnly, not removable: the logs) needs only id and createTime (docs/resource-engine.md)
      const audit = def.readOnly && !def.removable
        ? ['id', 'createTime']
        : ['id', 'createUser', 'createDept', 'createTime', 'updateUser', 'updateTime', 'status', 'isDeleted'];
      for (const name of audit) {
        expect(columns[name] && inDb!.has(columns[name]!.name), `${code}: audit column ${name}`).toBe(true);
      }
      if (def.scope === 'tenant') expect(inDb!.has('tenant_id'), `${code} is tenant-scoped: tenant_id`).toBe(true);
      if (def.tree?.ancestorsColumn) expect(inDb!.has(columns[def.tree.ancestorsColumn]?.name ?? '?'), 'the ancestors column').toBe(true);
      for (const [name, f] of Object.entries(def.fields)) {
        if (f.ref) expect(Object.hasOwn(resources, f.ref) || h.server.ctx.resources.has(f.ref), `${code}.${name} refers to ${f.ref}`).toBe(true);
      }
    });

    if (def.within) it(`is worked on in the screen of ${def.within.parent}, guarded by its menu and buttons`, () => {
      const parent = defs.find((d) => d.code === def.within!.parent);
      expect(parent?.menu, `${code}: parent ${def.within!.parent} has a screen`).toBeDefined();
      expect(def.menu, `${code} is shown within ${def.within!.parent}: no menu of its own`).toBeUndefined();
      expect(Object.hasOwn(def.fields, def.within!.field), `${code}.${def.within!.field}`).toBe(true);
      const parentCodes = permissionCodes(parent!);
      const known = new Set([parentCodes.menu, parentCodes.add, parentCodes.edit, parentCodes.delete, parentCodes.view, ...(parent!.menu!.buttons ?? []).map((b) => b.code)]);
      const codes = permissionCodes(def);
      const used = def.readOnly ? [codes.menu, codes.view] : [codes.menu, codes.add, codes.edit, codes.delete, codes.view];
      for (const c of used) expect(known.has(c) && menus.some((m) => m.code === c), `${code}: ${c} is a code of ${parent!.code}'s screen`).toBe(true);
    });
    else if (def.codes?.menu && def.codes.menu !== code) it(`is worked on in the screen of ${def.codes.menu}, guarded by its menu and buttons`, () => {
      const screen = defs.find((d) => d.code === def.codes!.menu);
      expect(screen?.menu, `${code}: ${def.codes!.menu} has a screen`).toBeDefined();
      expect(def.menu, `${code} is shown in ${def.codes!.menu}'s screen: no menu of its own`).toBeUndefined();
      const screenCodes = permissionCodes(screen!);
      const known = new Set([screenCodes.menu, screenCodes.add, screenCodes.edit, screenCodes.delete, screenCodes.view, ...(screen!.menu!.buttons ?? []).map((b) => b.code)]);
      const codes = permissionCodes(def);
      const used = def.readOnly ? [codes.menu, codes.view] : [codes.menu, codes.add, codes.edit, codes.delete, codes.view];
      for (const c of used) expect(known.has(c) && menus.some((m) => m.code === c), `${code}: ${c} is a code of ${screen!.code}'s screen`).toBe(true);
    });
    else it('has a menu under a declared directory, seeded with its buttons', () => {
      expect(def.menu, `${code} has no menu`).toBeDefined();
      const menu = def.menu!;
      const dir = MENU_DIRECTORIES.find((d) => d.code === menu.parent);
      expect(dir, `${code}: menu parent ${menu.parent} is not in MENU_DIRECTORIES`).toBeDefined();
      const row = menus.find((m) => m.code === code);
      expect(row, `blade_menu row ${code}`).toBeDefined();
      expect(row!.path).toBe(menu.route);
      const parent = menus.find((m) => m.id === row!.parent_id);
      expect(parent?.code, `${code}: the menu row's parent`).toBe(menu.parent);
      const codes = permissionCodes(def);
      const standard = (['add', 'edit', 'delete', 'view'] as const).filter((b) => def.buttons?.[b] !== false).map((b) => codes[b]);
      const buttons = [...standard, ...(menu.buttons ?? []).map((b) => b.code)];
      for (const b of buttons) {
        const btn = menus.find((m) => m.code === b);
        expect(btn, `button row ${b}`).toBeDefined();
        expect(btn!.parent_id, `button ${b} under ${code}`).toBe(row!.id);
        expect(btn!.category, `${b} is a button`).toBe(2);
      }
      expect(new Set(buttons).size, `${code}: button codes are distinct`).toBe(buttons.length);
    });

    it('guards every action and export/import with the menu code, a standard button or one of its extra buttons', () => {
      const codes = permissionCodes(def);
      const screenCode = def.within?.parent ?? def.codes?.menu ?? code;
      const screen = defs.find((d) => d.code === screenCode);
      const allowed = new Set([codes.menu, codes.add, codes.edit, codes.delete, codes.view, ...(screen?.menu?.buttons ?? []).map((b) => b.code)]);
      for (const [key, action] of Object.entries(def.actions ?? {})) {
        // null: any signed-in user (an action on one's own data); otherwise a code roles can be granted
        // or the menu of the screen that calls it (menu/role-tree-keys is the role screen's)
        const isMenu = (c: string) => defs.some((d) => permissionCodes(d).menu === c);
        if (action.permission !== null) expect(allowed.has(action.permission) || isMenu(action.permission), `${code}.actions.${key}: ${action.permission}`).toBe(true);
        // the other screens that call it are menus of resources
        for (const other of action.alsoFor ?? []) expect(isMenu(other), `${code}.actions.${key}: also for ${other}`).toBe(true);
        expect(action.path.startsWith(def.path) || /^\/(api|sc|tc)\//.test(action.path), `${code}.actions.${key} path`).toBe(true);
      }
      if (def.io?.export) expect(allowed.has(def.io.export.permission ?? `${code}_export`), `${code}: export permission`).toBe(true);
      if (def.io?.import) expect(allowed.has(def.io.import.permission ?? `${code}_import`), `${code}: import permission`).toBe(true);
      for (const b of def.menu?.buttons ?? []) {
        if (b.action) expect(def.actions?.[b.action], `${code}: button ${b.code} calls action ${b.action}`).toBeDefined();
        // a row button shown by the row's state names a field the list answers
        if (b.shownWhen) {
          expect(b.placement, `${code}: button ${b.code} shownWhen`).toBe('row');
          expect(def.fields[b.shownWhen.field], `${code}: button ${b.code} shownWhen.field`).toBeDefined();
          expect(b.shownWhen.values.length, `${code}: button ${b.code} shownWhen.values`).toBeGreaterThan(0);
        }
      }
      expect(allowed.size).toBeGreaterThan(0);
    });
  });

  it('puts every table with a tenant_id under row-level security with the tenant_isolation policy', async () => {
    const tables = [...columnsByTable.entries()].filter(([, cols]) => cols.has('tenant_id')).map(([name]) => name).sort();
    expect(tables).toContain('blade_notice');
    const state = await query<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean; owner: string }>(sql`
      select c.relname, c.relrowsecurity, c.relforcerowsecurity, pg_get_userbyid(c.relowner) as owner
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')`);
    const policies = await query<{ tablename: string; policyname: string; roles: string[] | string; qual: string | null; with_check: string | null }>(
      sql`select tablename, policyname, roles, qual, with_check from pg_policies where schemaname = 'public'`,
    );
    const bypass = await query<{ rolname: string; rolbypassrls: boolean }>(sql`select rolname, rolbypassrls from pg_roles where rolname = 'console_app'`);
    expect(bypass, 'the request role console_app exists and does not bypass row-level security').toEqual([{ rolname: 'console_app', rolbypassrls: false }]);

    const problems: string[] = [];
    for (const table of tables) {
      if (PLATFORM_TABLES_WITH_TENANT_ID[table]) continue;
      const s = state.find((r) => r.relname === table);
      if (!s?.relrowsecurity) problems.push(`${table}: row-level security is not enabled`);
      // requests run as console_app, which must never own the table (an owner is exempt unless FORCE is set)
      if (s && s.owner === 'console_app' && !s.relforcerowsecurity) problems.push(`${table}: owned by console_app without FORCE ROW LEVEL SECURITY`);
      const p = policies.find((r) => r.tablename === table && r.policyname === 'tenant_isolation');
      if (!p) {
        problems.push(`${table}: no tenant_isolation policy`);
        continue;
      }
      const roles = Array.isArray(p.roles) ? p.roles : String(p.roles).replace(/[{}]/g, '').split(',');
      if (!roles.includes('console_app')) problems.push(`${table}: tenant_isolation does not apply to console_app (${roles.join(',')})`);
      for (const expr of [p.qual, p.with_check]) {
        if (!expr || !/tenant_id/.test(expr) || !/app\.tenant_id/.test(expr)) problems.push(`${table}: tenant_isolation is not tenant_id = app.tenant_id (${expr})`);
      }
    }
    expect(problems).toEqual([]);
    for (const table of Object.keys(PLATFORM_TABLES_WITH_TENANT_ID)) expect(tables, `${table} is still a table with tenant_id`).toContain(table);
  });

  it('puts a new table with a tenant_id under the same policies at the next start (no hand-written line), and changes nothing the time after', async () => {
    const db = h.server.ctx.db;
    expect(await secureTenantTables(db), 'the started server left nothing to do').toEqual([]);
    await db.execute(sql`create table registry_new_tenant_table (id bigint primary key, tenant_id varchar(12) not null, name varchar(20))`);
    try {
      await db.execute(sql`insert into registry_new_tenant_table values (1, '000000', 'platform'), (2, '541742', 'demo')`);
      expect(await secureTenantTables(db)).toEqual(['registry_new_tenant_table']);
      const policiesOf = async (table: string) => (await query<{ policyname: string; roles: unknown; cmd: string; permissive: string; qual: string; with_check: string }>(
        sql`select policyname, roles::text as roles, cmd, permissive, qual, with_check from pg_policies where schemaname = 'public' and tablename = ${table} order by policyname`,
      ));
      // the same policies migration 0003 gave the first tenant tables
      expect(await policiesOf('registry_new_tenant_table')).toEqual(await policiesOf('blade_notice'));
      expect((await query<{ relrowsecurity: boolean }>(sql`select relrowsecurity from pg_class where relname = 'registry_new_tenant_table'`))[0]!.relrowsecurity).toBe(true);
      const seen = await inTenant(db, { tenantId: '541742' }, async (tx) =>
        ((await tx.execute(sql`select name from registry_new_tenant_table order by id`)) as unknown as Rows<{ name: string }>).rows.map((r) => r.name));
      expect(seen, 'a request sees its tenant\'s rows only').toEqual(['demo']);
      await expect(inTenant(db, { tenantId: '541742' }, (tx) => tx.execute(sql`insert into registry_new_tenant_table values (3, '000000', 'other')`)),
        'nor writes another tenant\'s').rejects.toThrow();
      const all = await inTenant(db, { tenantId: '541742', allTenants: true }, async (tx) =>
        ((await tx.execute(sql`select count(*)::int as n from registry_new_tenant_table`)) as unknown as Rows<{ n: number }>).rows[0]!.n);
      expect(all, 'a platform operation sees every row').toBe(2);
      expect(await secureTenantTables(db), 'a second run is a no-op').toEqual([]);
    } finally {
      await db.execute(sql`drop table registry_new_tenant_table`);
    }
  });

  it('resolves the tenant tables of tenant-scoped resources under row-level security too', async () => {
    const tenantTables = bindings.filter((b) => b.def.scope === 'tenant').map((b) => getTableName(b.table));
    const on = await query<{ relname: string }>(sql`select relname from pg_class where relrowsecurity and relname in (${sql.join(tenantTables.map((t) => sql`${t}`), sql`, `)})`);
    expect(on.map((r) => r.relname).sort()).toEqual([...new Set(tenantTables)].sort());
  });
});

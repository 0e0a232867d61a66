import { sql } from 'drizzle-orm';
import type { Db } from './types.js';

/**
 * Tables that carry a tenant_id but are platform data on purpose: not under row-level security, with the
 * reason. Every other table of the public schema with a tenant_id column is (secureTenantTables).
 */
export const PLATFORM_TABLES_WITH_TENANT_ID: Readonly<Record<string, string>> = {
  blade_tenant: 'the tenants themselves: tenant_id is the tenant a row describes, read by the platform and at sign-in',
  ymy_product_auth: 'the product types granted to each tenant: written by the platform for any tenant; a tenant reads only its own rows, by tenant_id (product/typeAccess.ts)',
};

/**
 * The policies of a tenant table, as migration 0003 (app_enable_tenant_rls) first set them: a request
 * (console_app) sees and writes the rows of app.tenant_id only, a platform operation (console_platform)
 * every row. A plain equality, so the planner can estimate it and use indexes.
 */
const TENANT_CONDITION = "tenant_id = current_setting('app.tenant_id', true)";
const POLICIES = [
  { name: 'tenant_isolation', role: 'console_app', condition: TENANT_CONDITION },
  { name: 'platform_all', role: 'console_platform', condition: 'true' },
] as const;

interface TableState {
  table: string;
  rowSecurity: boolean;
  policies: Array<{ name: string; roles: string[]; cmd: string; permissive: string; qual: string | null; check: string | null }>;
}

/** An expression as PostgreSQL prints it back, without casts, parentheses and spaces, to compare with ours. */
const normalized = (expr: string | null) => (expr ?? '').replace(/::text/g, '').replace(/[()\s]/g, '');

function inPlace(state: TableState): boolean {
  return state.rowSecurity && POLICIES.every((want) => state.policies.some((p) =>
    p.name === want.name && p.roles.length === 1 && p.roles[0] === want.role && p.cmd === 'ALL' && p.permissive === 'PERMISSIVE'
    && normalized(p.qual) === normalized(want.condition) && normalized(p.check) === normalized(want.condition)));
}

/**
 * Puts every table of the public schema that has a tenant_id column (but those of
 * PLATFORM_TABLES_WITH_TENANT_ID) under row-level security with the tenant policies, so a new tenant table
 * needs no hand-written line in its migration. Run at every start after the migrations, under the same
 * lock; one catalog query when everything is in place. Returns the tables it changed.
 */
export async function secureTenantTables(db: Db): Promise<string[]> {
  const result = await db.execute(sql`
    select c.relname as "table", c.relrowsecurity as "rowSecurity",
      (select coalesce(json_agg(json_build_object('name', p.policyname, 'roles', p.roles, 'cmd', p.cmd,
          'permissive', p.permissive, 'qual', p.qual, 'check', p.with_check)), '[]'::json)
        from pg_policies p where p.schemaname = n.nspname and p.tablename = c.relname) as policies
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')
      and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
    order by c.relname`);
  const states = (result as unknown as { rows: TableState[] }).rows;
  const missing = states.filter((s) => !Object.hasOwn(PLATFORM_TABLES_WITH_TENANT_ID, s.table) && !inPlace(s)).map((s) => s.table);
  if (missing.length === 0) return [];
  await db.transaction(async (tx) => {
    for (const table of missing) {
      const t = sql.identifier(table);
      await tx.execute(sql`alter table ${t} enable row level security`);
      for (const p of POLICIES) {
        await tx.execute(sql`drop policy if exists ${sql.identifier(p.name)} on ${t}`);
        await tx.execute(sql`create policy ${sql.identifier(p.name)} on ${t} to ${sql.identifier(p.role)}
          using (${sql.raw(p.condition)}) with check (${sql.raw(p.condition)})`);
      }
    }
  });
  return missing;
}

/**
 * Users at size for the platform benches: 1,000 departments of one tenant (10 regions › 90 branches › 900
 * teams) and `users` users spread over the teams, made by the database itself (INSERT … SELECT
 * generate_series). Every user shares the tenant admin's password hash and role.
 */
export type SqlQuery = (text: string) => Promise<{ rows: Array<Record<string, unknown>> }>;

/** Department ids: regions 8000000000000001–10, branches 8000000000001001–1090, teams 8000000000010001–10900. */
export const REGION = (n: number) => String(8000000000000000 + n);
export const BRANCH = (n: number) => String(8000000000001000 + n);
export const TEAM = (n: number) => String(8000000000010000 + n);

export async function seedUsers(query: SqlQuery, tenant: string, users: number): Promise<{ roleId: string; passwordHash: string }> {
  await query(`INSERT INTO blade_dept (id, tenant_id, parent_id, ancestors, dept_name, full_name, dept_category, sort)
    SELECT 8000000000000000 + g, '${tenant}', 0, '0', '大区' || g, '大区' || g, 1, g FROM generate_series(1, 10) g`);
  await query(`INSERT INTO blade_dept (id, tenant_id, parent_id, ancestors, dept_name, full_name, dept_category, sort)
    SELECT 8000000000001000 + g, '${tenant}', 8000000000000000 + ((g - 1) % 10) + 1, '0,' || (8000000000000000 + ((g - 1) % 10) + 1),
      '分部' || g, '分部' || g, 2, g FROM generate_series(1, 90) g`);
  await query(`INSERT INTO blade_dept (id, tenant_id, parent_id, ancestors, dept_name, full_name, dept_category, sort)
    SELECT 8000000000010000 + g, '${tenant}', 8000000000001000 + ((g - 1) % 90) + 1,
      '0,' || (8000000000000000 + ((((g - 1) % 90)) % 10) + 1) || ',' || (8000000000001000 + ((g - 1) % 90) + 1),
      '小组' || g, '小组' || g, 3, g FROM generate_series(1, 900) g`);
  const [role] = (await query(`SELECT id FROM blade_role WHERE tenant_id = '${tenant}' AND role_alias = 'admin'`)).rows;
  const [admin] = (await query(`SELECT password FROM blade_user WHERE tenant_id = '${tenant}' AND account = 'admin'`)).rows;
  if (!role || !admin) throw new Error(`tenant ${tenant} has no admin role or admin user`);
  const roleId = String(role.id);
  const passwordHash = String(admin.password);
  await query(`INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, phone, email, role_id, dept_id, user_type, sex, birthday, create_time, update_time)
    SELECT 7000000000000000 + g, '${tenant}', 'user' || g, '${passwordHash}', '用户' || g, '用户' || g, '138' || lpad(g::text, 8, '0'),
      'user' || g || '@example.com', '${roleId}', (8000000000010000 + ((g - 1) % 900) + 1)::text, 1, 1 + g % 2, date '1990-01-01' + g % 9000,
      now() - (g || ' seconds')::interval, now()
    FROM generate_series(1, ${users}) g`);
  return { roleId, passwordHash };
}

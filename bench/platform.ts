/**
 * Platform administration at size (issue 9): the user list by department with 100,000 users in 1,000
 * departments, and `menu/routes` for a role holding 500 menus, on PGlite or PostgreSQL.
 *
 *   npm run bench:platform -w bench -- --db=pglite|postgres [--users=100000] [--calls=200] [--keep]
 *
 * `--keep` leaves the PostgreSQL database `console_bench_platform` behind, to EXPLAIN its queries.
 *
 * The server runs in-process (createServer) and is called through Fastify's inject, so the figures hold the
 * whole request (access checks, data scope, validation, SQL, presentation) without a socket. Data is made by
 * the database itself (INSERT … SELECT generate_series), then ANALYZEd.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { loadConfig } from '@console/server/src/core/config.js';
import { createServer } from '@console/server/src/server.js';
import { dbOption, intOption, queryOnce, withDatabase } from './data.js';
import { sample, stats } from './measure.js';
import { writeSection } from './report.js';
import { BRANCH, REGION, seedUsers, type SqlQuery, TEAM } from './users.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const db = dbOption(args.db ?? 'pglite');
const users = intOption('users', args.users ?? '100000', 1000, 10_000_000);
const calls = intOption('calls', args.calls ?? '200', 10, 100_000);
const TENANT = '541742';
const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'console-bench-platform-'));
  const adminUrl = args['pg-url'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = 'console_bench_platform';
  if (db === 'postgres') {
    await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await queryOnce(adminUrl, `CREATE DATABASE ${dbName}`);
  }
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: db === 'postgres' ? withDatabase(adminUrl, dbName) : '', PUBLIC_RATE_PER_MINUTE: '100000' }, { dataDir: dir });
  const server = await createServer(config);
  try {
    const exec = (text: string) => server.ctx.db.execute(sql.raw(text));
    const t0 = Date.now();
    const query: SqlQuery = async (text) => (await server.ctx.db.execute(sql.raw(text))) as unknown as { rows: Array<Record<string, unknown>> };
    const { passwordHash } = await seedUsers(query, TENANT, users);
    // 500 menus (25 directories of 19 screens, each with its 4 buttons) granted to one role
    await exec(`INSERT INTO blade_menu (id, parent_id, code, name, alias, path, sort, category, action, is_open)
      SELECT 6000000000000000 + g, 0, 'bench_dir_' || g, '目录' || g, 'menu', '/bench' || g, 100 + g, 1, 0, 1 FROM generate_series(1, 25) g`);
    await exec(`INSERT INTO blade_menu (id, parent_id, code, name, alias, path, sort, category, action, is_open)
      SELECT 6000000000001000 + g, 6000000000000000 + ((g - 1) % 25) + 1, 'bench_menu_' || g, '菜单' || g, 'menu', '/bench/m' || g, g, 1, 0, 1
      FROM generate_series(1, 475) g`);
    await exec(`INSERT INTO blade_menu (id, parent_id, code, name, alias, path, sort, category, action, is_open)
      SELECT 6000000000100000 + g, 6000000000001000 + ((g - 1) % 475) + 1, 'bench_btn_' || g, '按钮' || g, 'add', '', 1, 2, 1, 1
      FROM generate_series(1, 1900) g`);
    await exec(`INSERT INTO blade_role (id, tenant_id, parent_id, role_name, role_alias, sort) VALUES (5000000000000001, '${TENANT}', 0, '菜单很多', 'bench_many', 9)`);
    await exec(`INSERT INTO blade_role_menu (role_id, menu_id) SELECT 5000000000000001, id FROM blade_menu WHERE code LIKE 'bench_%'`);
    await exec(`INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, role_id, dept_id, user_type)
      VALUES (7100000000000001, '${TENANT}', 'menus', '${passwordHash}', 'menus', 'menus', '5000000000000001', '8000000000000001', 1)`);
    // what autovacuum does after a bulk insert: statistics, and the visibility map index-only scans rely on
    await exec('VACUUM ANALYZE');
    const seedSeconds = (Date.now() - t0) / 1000;
    await server.ctx.permissions.invalidate();

    const login = async (account: string, password: string) => {
      const res = await server.app.inject({
        method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC, 'tenant-id': TENANT },
        query: { grant_type: 'password', tenantId: TENANT, username: account, password: md5(password), scope: 'all', type: 'account' },
      });
      return (res.json() as { access_token: string }).access_token;
    };
    const adminToken = await login('admin', 'admin');
    const menusToken = await login('menus', 'admin');
    const call = (token: string, url: string, query: Record<string, string>) => async () => {
      const res = await server.app.inject({ method: 'GET', url, query, headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` } });
      if (res.statusCode !== 200) throw new Error(`${url} ${JSON.stringify(query)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    };
    const cases: Array<[string, () => Promise<void>]> = [
      ['user list, a region (100 departments, 1/10 of the users), page 1', call(adminToken, '/api/blade-system/user/page', { deptId: REGION(3), current: '1', size: '10' })],
      ['user list, a branch (10 departments), page 1', call(adminToken, '/api/blade-system/user/page', { deptId: BRANCH(7), current: '1', size: '10' })],
      ['user list, a team (1 department), page 1', call(adminToken, '/api/blade-system/user/page', { deptId: TEAM(123), current: '1', size: '10' })],
      ['user list, a team, page 5 by account', call(adminToken, '/api/blade-system/user/page', { deptId: TEAM(123), current: '5', size: '10', ascs: 'account' })],
      [`user list, all ${users.toLocaleString('en')}, page 1`, call(adminToken, '/api/blade-system/user/list', { current: '1', size: '10' })],
      ['menu/routes, a role of 500 menus (cached answer)', call(menusToken, '/api/blade-system/menu/routes', {})],
      ['menu/routes, a role of 500 menus (cache cleared before each call)', async () => {
        await server.ctx.permissions.invalidate();
        await call(menusToken, '/api/blade-system/menu/routes', {})();
      }],
      ['menu/buttons, a role of 500 menus and 1,900 buttons (cache cleared)', async () => {
        await server.ctx.permissions.invalidate();
        await call(menusToken, '/api/blade-system/menu/buttons', {})();
      }],
    ];
    const rows: string[] = [];
    for (const [name, fn] of cases) {
      const s = stats(await sample(calls, Math.min(20, calls), fn));
      rows.push(`| ${name} | ${s.median.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} |`);
      console.log(name, s);
    }
    const section = [
      `${db === 'postgres' ? 'PostgreSQL' : 'PGlite'}: ${users.toLocaleString('en')} users in 1,000 departments of tenant ${TENANT}, ${calls} calls per case`
        + ` (seeded in ${seedSeconds.toFixed(1)} s), ${new Date().toISOString().slice(0, 10)}:`,
      '',
      '| case | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n');
    writeSection(args.results ?? 'RESULTS.md', `platform-${db}`, section);
    console.log(section);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    if (db === 'postgres' && !('keep' in args)) await queryOnce(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

await main();

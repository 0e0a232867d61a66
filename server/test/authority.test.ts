import type { MenuRoute, Page } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { md5, useServer } from './harness.js';

const h = useServer();
let admin: string;
let demo: string;

type Rec = Record<string, unknown> & { id: string };
const SYS = '/api/blade-system';

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
});

async function menuIds(codes: string[]): Promise<string[]> {
  const list = await h.call<Page<Rec>>('GET', `${SYS}/menu/lazy-list`, { token: admin, query: { code: codes.join(',') } });
  void list;
  const { inTenant, schema } = await import('../src/core/db/index.js');
  const { inArray, and, eq } = await import('drizzle-orm');
  const rows = await inTenant(h.server.ctx.db, { tenantId: '000000' }, (tx) =>
    tx.select({ id: schema.menu.id, code: schema.menu.code }).from(schema.menu).where(and(inArray(schema.menu.code, codes), eq(schema.menu.isDeleted, 0))));
  return codes.map((c) => rows.find((r) => r.code === c)!.id);
}

const routeCodes = (tree: MenuRoute[]): string[] => tree.flatMap((m) => [m.code, ...routeCodes((m as MenuRoute & { children?: MenuRoute[] }).children ?? [])]);

describe('tenant packages and tenants', () => {
  let packageId: string;
  let tenantCode: string;
  let initialPassword: string;

  it('validates a package with the spec\'s messages and refuses tenants\' administrators', async () => {
    const empty = await h.call('POST', `${SYS}/tenant-package/submit`, { token: admin, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.data).toEqual({ packageName: '请输入套餐名称', menuId: '请选择菜单' });
    const en = await h.call('POST', `${SYS}/tenant-package/submit`, { token: admin, body: {}, lang: 'en' });
    expect(en.body.data).toEqual({ packageName: 'Please enter the package name', menuId: 'Please select menus' });
    expect((await h.call('GET', `${SYS}/tenant-package/list`, { token: demo })).status).toBe(403);
    expect((await h.call('GET', `${SYS}/tenant/list`, { token: demo })).status).toBe(403);
    const bogus = await h.call('POST', `${SYS}/tenant-package/submit`, { token: admin, body: { packageName: 'x', menuId: '123' } });
    expect(bogus.status).toBe(400);
    expect(bogus.body.data).toHaveProperty('menuId');
  });

  it('creates a tenant on a package: a 6-digit id, its admin role, root department and admin user, in one go', async () => {
    const ids = await menuIds(['desk', 'notice', 'notice_view', 'notice_add', 'system', 'dept', 'dept_add', 'dept_edit']);
    const pkg = await h.call<Rec>('POST', `${SYS}/tenant-package/submit`, { token: admin, body: { packageName: '基础版', menuId: ids.join(',') } });
    expect(pkg.status).toBe(200);
    packageId = pkg.body.data.id;
    expect(pkg.body.data.menuIdName).toContain('通知公告');
    const created = await h.call<Rec>('POST', `${SYS}/tenant/submit`, { token: admin, body: { tenantName: '华南锁业', linkman: '张三', packageId, accountNumber: 3 } });
    expect(created.status).toBe(200);
    tenantCode = String(created.body.data.tenantId);
    // no password given: a random one, answered by this create alone
    initialPassword = String(created.body.data.adminPassword);
    expect(initialPassword).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[@#%+=?])[A-HJ-NP-Za-km-z2-9@#%+=?]{14}$/);
    expect((await h.call<Rec>('GET', `${SYS}/tenant/detail`, { token: admin, query: { id: created.body.data.id } })).body.data).not.toHaveProperty('adminPassword');
    expect((await h.call<Page<Rec>>('GET', `${SYS}/tenant/list`, { token: admin, query: { tenantName: '华南' } })).body.data.records[0]).not.toHaveProperty('adminPassword');
    // set once, at creation: an edit cannot change it, and a password that is not an MD5 is refused on its field
    const changed = await h.call<Record<string, string>>('POST', `${SYS}/tenant/submit`, { token: admin, body: { id: created.body.data.id, adminPassword: md5('x') } });
    expect(changed.status).toBe(400);
    expect(changed.body.data).toHaveProperty('adminPassword');
    const plain = await h.call<Record<string, string>>('POST', `${SYS}/tenant/submit`, { token: admin, body: { tenantName: '明文密码', linkman: '张三', adminPassword: 'secret' } });
    expect(plain.status).toBe(400);
    expect(plain.body.data).toEqual({ adminPassword: '密码格式错误 (应为 MD5)' });
    expect(tenantCode).toMatch(/^\d{6}$/);
    expect(created.body.data.packageIdName).toBe('基础版');
    const listed = await h.call<Page<Rec>>('GET', `${SYS}/tenant/list`, { token: admin, query: { tenantName: '华南' } });
    expect(listed.body.data.records.map((r) => r.tenantId)).toEqual([tenantCode]);
    const detail = await h.call<Rec | null>('GET', `${SYS}/tenant/package-detail`, { token: admin, query: { tenantId: tenantCode } });
    expect(detail.body.data?.packageName).toBe('基础版');
  });

  it('signs the new tenant\'s admin in with the password shown at creation, showing only the package\'s menus', async () => {
    await expect(h.login(tenantCode, 'admin', '123456')).rejects.toThrow(/failed/);
    const token = await h.login(tenantCode, 'admin', initialPassword);
    const routes = await h.call<MenuRoute[]>('GET', `${SYS}/menu/routes`, { token: token.access_token });
    expect(routeCodes(routes.body.data).sort()).toEqual(['dept', 'desk', 'notice', 'system']);
    const info = await h.call<Rec>('GET', `${SYS}/user/info`, { token: token.access_token });
    expect(info.status).toBe(200);
    // the package does not hold dept_delete
    const depts = await h.call<Rec[]>('GET', `${SYS}/dept/list`, { token: token.access_token });
    expect(depts.body.data.map((d) => d.deptName)).toEqual(['华南锁业']);
    expect(depts.body.data[0]!.children).toBeUndefined();
    expect((await h.call('POST', `${SYS}/dept/remove`, { token: token.access_token, query: { ids: String(depts.body.data[0]!.id) } })).status).toBe(403);
  });

  it('makes the new admin change the initial password before saving anything else', async () => {
    const token = (await h.login(tenantCode, 'admin', initialPassword)).access_token;
    const info = await h.call<Rec>('GET', `${SYS}/user/info`, { token });
    expect(info.body.data.passwordReset).toBe(true);
    const refused = await h.call('POST', `${SYS}/dept/submit`, { token, body: { deptName: 'x', fullName: 'x', deptCategory: 2, sort: 1 } });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('请先修改初始密码 (个人信息 › 修改密码)');
    const changed = await h.call('POST', '/api/blade-user/update-password', { token, body: { oldPassword: md5(initialPassword), newPassword: md5('Lock@2026'), newPassword1: md5('Lock@2026') } });
    expect(changed.status).toBe(200);
    expect((await h.call<Rec>('GET', `${SYS}/user/info`, { token })).body.data.passwordReset).toBe(false);
    expect((await h.call('POST', `${SYS}/dept/submit`, { token, body: { deptName: '研发', fullName: '研发', deptCategory: 2, sort: 1 } })).status).toBe(200);
  });

  it('lets a tenant\'s administrator grant only menus of the package', async () => {
    const token = (await h.login(tenantCode, 'admin', 'Lock@2026')).access_token;
    const roles = await h.call<Rec[]>('GET', `${SYS}/role/list`, { token });
    expect(roles.status).toBe(403); // the package has no role menu
    const [paramMenu] = await menuIds(['param']);
    const { inTenant, schema } = await import('../src/core/db/index.js');
    const { eq, and } = await import('drizzle-orm');
    const [role] = await inTenant(h.server.ctx.db, { tenantId: tenantCode }, (tx) => tx.select().from(schema.role).where(and(eq(schema.role.tenantId, tenantCode))));
    // give it the role screen through the package, then try to grant beyond it
    const ids = await menuIds(['desk', 'notice', 'notice_view', 'notice_add', 'system', 'dept', 'dept_add', 'dept_edit', 'authority', 'role', 'role_grant']);
    expect((await h.call('POST', `${SYS}/tenant-package/submit`, { token: admin, body: { id: packageId, menuId: ids.join(',') } })).status).toBe(200);
    expect((await h.call('POST', `${SYS}/role/grant`, { token: admin, query: { roleIds: role!.id, menuIds: ids.join(',') } })).status).toBe(400); // another tenant's role
    const tokenAgain = (await h.login(tenantCode, 'admin', 'Lock@2026')).access_token;
    // the package widened, but the role still holds only what it was granted
    expect((await h.call('POST', `${SYS}/role/grant`, { token: tokenAgain, query: { roleIds: role!.id, menuIds: ids.join(',') } })).status).toBe(403);
    await inTenant(h.server.ctx.db, { tenantId: tenantCode }, (tx) => tx.insert(schema.roleMenu).values(ids.slice(8).map((menuId) => ({ roleId: role!.id, menuId }))));
    await h.server.ctx.permissions.invalidate();
    const outside = await h.call('POST', `${SYS}/role/grant`, { token: tokenAgain, body: { roleIds: role!.id, menuIds: [...ids, paramMenu].join(',') } });
    expect(outside.status).toBe(400);
    expect(outside.body.msg).toMatch(/参数管理/);
    const tree = await h.call<Array<{ id: string; children?: unknown[] }>>('GET', `${SYS}/menu/grant-tree`, { token: tokenAgain });
    const flat = JSON.stringify(tree.body.data);
    expect(flat).not.toContain(paramMenu);
    expect((await h.call('POST', `${SYS}/role/grant`, { token: tokenAgain, body: { roleIds: role!.id, menuIds: ids.join(',') } })).status).toBe(200);
  });

  it('enforces the account quota when users are added', async () => {
    const token = (await h.login(tenantCode, 'admin', 'Lock@2026')).access_token;
    const { inTenant, schema } = await import('../src/core/db/index.js');
    const [role] = await inTenant(h.server.ctx.db, { tenantId: tenantCode }, (tx) => tx.select().from(schema.role));
    const [dept] = await inTenant(h.server.ctx.db, { tenantId: tenantCode }, (tx) => tx.select().from(schema.dept));
    // the package does not hold the user screen: the platform admin adds users there through the database
    for (const account of ['u1', 'u2']) await h.createUser(tenantCode, account, 'pw', ['admin']);
    void token; void role; void dept;
    const { checkQuota } = await import('../src/areas/authority/users.js');
    await expect(inTenant(h.server.ctx.db, { tenantId: tenantCode }, (tx) => checkQuota(tx, tenantCode, 1))).rejects.toMatchObject({ key: 'tenantFull' });
  });

  it('refuses sign-in to an expired tenant with a clear message, and setting applies to several tenants', async () => {
    const listed = await h.call<Page<Rec>>('GET', `${SYS}/tenant/list`, { token: admin, query: { tenantId: tenantCode } });
    const rowId = listed.body.data.records[0]!.id;
    expect((await h.call('POST', `${SYS}/tenant/setting`, { token: admin, query: { ids: rowId, expireTime: '2020-01-01 00:00:00', accountNumber: 10 } })).status).toBe(200);
    const res = await h.tokenRequest({ grant_type: 'password', tenantId: tenantCode, username: 'admin', password: md5('Lock@2026'), scope: 'all', type: 'account' }, { 'tenant-id': tenantCode });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe('租户已过期, 请联系管理员');
    expect((await h.call('POST', `${SYS}/tenant/setting`, { token: demo, query: { ids: rowId, expireTime: '' } })).status).toBe(403);
    expect((await h.call('POST', `${SYS}/tenant/setting`, { token: admin, query: { ids: rowId, expireTime: '' } })).status).toBe(200);
  });

  it('never removes the platform tenant', async () => {
    const listed = await h.call<Page<Rec>>('GET', `${SYS}/tenant/list`, { token: admin, query: { tenantId_equal: '000000' } });
    const res = await h.call('POST', `${SYS}/tenant/remove`, { token: admin, query: { ids: listed.body.data.records[0]!.id } });
    expect(res.status).toBe(400);
  });
});

describe('users, roles and what takes effect at once', () => {
  let deptRoot: string;
  let deptChild: string;
  let userRole: string;

  beforeAll(async () => {
    deptRoot = (await h.call<Rec>('POST', `${SYS}/dept/submit`, { token: admin, body: { deptName: '销售部', fullName: '销售部', deptCategory: 2, sort: 5 } })).body.data.id;
    deptChild = (await h.call<Rec>('POST', `${SYS}/dept/submit`, { token: admin, body: { deptName: '华北销售', fullName: '华北销售', parentId: deptRoot, deptCategory: 3, sort: 1 } })).body.data.id;
    const roles = await h.call<Rec[]>('GET', `${SYS}/role/list`, { token: admin });
    userRole = roles.body.data.find((r) => r.roleAlias === 'user')!.id;
  });

  it('creates a user with the initial password; the hash never leaves the server; the account is unique per tenant', async () => {
    const created = await h.call<Rec>('POST', `${SYS}/user/submit`, {
      token: admin, body: { account: 'zhangsan', name: '张三', realName: '张三', deptId: deptChild, roleId: userRole },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).not.toHaveProperty('password');
    expect(created.body.data.deptIdName).toBe('华北销售');
    expect(created.body.data.roleIdName).toBe('用户');
    const detail = await h.call<Rec>('GET', `${SYS}/user/detail`, { token: admin, query: { id: created.body.data.id } });
    expect(JSON.stringify(detail.body)).not.toMatch(/argon2/);
    expect((await h.login('000000', 'zhangsan', '123456')).access_token).toBeTruthy();
    const dup = await h.call('POST', `${SYS}/user/submit`, { token: admin, body: { account: 'zhangsan', name: 'x', realName: 'x', deptId: deptChild, roleId: userRole } });
    expect(dup.status).toBe(409);
    const badPassword = await h.call('POST', `${SYS}/user/submit`, { token: admin, body: { account: 'lisi', name: 'x', realName: 'x', deptId: deptChild, roleId: userRole, password: 'plain' } });
    expect(badPassword.status).toBe(400);
    expect(badPassword.body.data).toHaveProperty('password');
    const foreignRole = await h.call('POST', `${SYS}/user/submit`, { token: demo, body: { account: 'x1', name: 'x', realName: 'x', deptId: deptChild, roleId: userRole } });
    expect(foreignRole.status).toBe(400);
    expect(foreignRole.body.data).toMatchObject({ roleId: expect.any(String), deptId: expect.any(String) });
    // the same account in another tenant is another user
    const page = await h.call<Page<Rec>>('GET', `${SYS}/user/list`, { token: admin, query: { account: 'zhangsan' } });
    expect(page.body.data.total).toBe(1);
  });

  it('lists a department\'s users with those of the departments under it (user/page?deptId and the blade-user alias)', async () => {
    const inRoot = await h.call<Page<Rec>>('GET', `${SYS}/user/page`, { token: admin, query: { deptId: deptRoot } });
    expect(inRoot.body.data.records.map((r) => r.account)).toEqual(['zhangsan']);
    const alias = await h.call<Page<Rec>>('GET', '/api/blade-user/page', { token: admin, query: { deptId: deptChild } });
    expect(alias.body.data.records.map((r) => r.account)).toEqual(['zhangsan']);
    const elsewhere = await h.call<Page<Rec>>('GET', `${SYS}/user/list`, { token: admin, query: { deptId: '1' } });
    expect(elsewhere.body.data.total).toBe(0);
    expect((await h.call('GET', `${SYS}/user/list`, { token: admin, query: { deptId: 'x' } })).status).toBe(400);
  });

  it('applies a role grant that shrinks a signed-in user\'s menus at their next request, without signing in again', async () => {
    const token = (await h.login('000000', 'zhangsan', '123456')).access_token;
    const before = await h.call<MenuRoute[]>('GET', `${SYS}/menu/routes`, { token });
    expect(routeCodes(before.body.data)).toContain('notice');
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token })).status).toBe(200);
    const keep = await menuIds(['desk']);
    expect((await h.call('POST', `${SYS}/role/grant`, { token: admin, body: { roleIds: userRole, menuIds: keep.join(',') } })).status).toBe(200);
    const after = await h.call<MenuRoute[]>('GET', `${SYS}/menu/routes`, { token });
    expect(routeCodes(after.body.data)).toEqual(['desk']);
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token })).status).toBe(403);
    const back = await menuIds(['desk', 'notice', 'notice_view']);
    expect((await h.call('POST', `${SYS}/role/grant`, { token: admin, body: { roleIds: userRole, menuIds: back.join(',') } })).status).toBe(200);
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token })).status).toBe(200);
  });

  it('applies a user\'s new roles and a disabled status at the next request', async () => {
    const token = (await h.login('000000', 'zhangsan', '123456')).access_token;
    const [zs] = (await h.call<Page<Rec>>('GET', `${SYS}/user/list`, { token: admin, query: { account_equal: 'zhangsan' } })).body.data.records;
    expect((await h.call('GET', `${SYS}/param/list`, { token })).status).toBe(403);
    const roles = await h.call<Rec[]>('GET', `${SYS}/role/list`, { token: admin });
    const adminRole = roles.body.data.find((r) => r.roleAlias === 'administrator')!.id;
    expect((await h.call('POST', `${SYS}/user/grant`, { token: admin, body: { userIds: zs!.id, roleIds: `${userRole},${adminRole}` } })).status).toBe(200);
    expect((await h.call('GET', `${SYS}/param/list`, { token })).status).toBe(200);
    expect((await h.call('POST', `${SYS}/user/grant`, { token: admin, body: { userIds: zs!.id, roleIds: userRole } })).status).toBe(200);
    expect((await h.call('GET', `${SYS}/param/list`, { token })).status).toBe(403);
    expect((await h.call('POST', `${SYS}/user/submit`, { token: admin, body: { id: zs!.id, status: 2 } })).status).toBe(200);
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token })).status).toBe(401);
    expect((await h.call('POST', `${SYS}/user/submit`, { token: admin, body: { id: zs!.id, status: 1 } })).status).toBe(200);
  });

  it('resets a password to the initial one (signing the user out), unlocks, approves and refuses sign-ups', async () => {
    const id = await h.createUser('000000', 'wangwu', 'secret1', ['user']);
    const token = (await h.login('000000', 'wangwu', 'secret1')).access_token;
    expect((await h.call('POST', `${SYS}/user/reset-password`, { token: admin, query: { userIds: id } })).status).toBe(200);
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token })).status).toBe(401);
    expect((await h.login('000000', 'wangwu', '123456')).access_token).toBeTruthy();
    expect((await h.call('POST', `${SYS}/user/unlock`, { token: admin, query: { userIds: id } })).status).toBe(200);
    expect((await h.call('POST', `${SYS}/user/unlock`, { token: demo, query: { userIds: id } })).status).toBe(400);
    const pending = await h.createUser('000000', 'guest1', 'pw', ['user'], { status: 3 });
    const refused = await h.createUser('000000', 'guest2', 'pw', ['user'], { status: 3 });
    expect((await h.call('POST', `${SYS}/user/audit-pass`, { token: admin, query: { userIds: id } })).status).toBe(400);
    expect((await h.call('POST', `${SYS}/user/audit-pass`, { token: admin, query: { userIds: pending } })).status).toBe(200);
    expect((await h.login('000000', 'guest1', 'pw')).access_token).toBeTruthy();
    expect((await h.call('POST', `${SYS}/user/audit-refuse`, { token: admin, body: { userIds: [refused] } })).status).toBe(200);
    expect((await h.call('GET', `${SYS}/user/detail`, { token: admin, query: { id: refused } })).status).toBe(404);
  });

  it('keeps the last super administrator and refuses removing oneself', async () => {
    const [me] = (await h.call<Page<Rec>>('GET', `${SYS}/user/list`, { token: admin, query: { account_equal: 'admin' } })).body.data.records;
    const self = await h.call('POST', `${SYS}/user/remove`, { token: admin, query: { ids: me!.id } });
    expect(self.status).toBe(400);
    expect(self.body.msg).toBe('不能删除自己的账号');
    const roles = await h.call<Rec[]>('GET', `${SYS}/role/list`, { token: admin });
    const adminRole = roles.body.data.find((r) => r.roleAlias === 'administrator')!;
    expect((await h.call('POST', `${SYS}/role/remove`, { token: admin, query: { ids: adminRole.id } })).status).toBe(400);
    const lockout = await h.call('POST', `${SYS}/role/grant`, { token: admin, body: { roleIds: adminRole.id, menuIds: (await menuIds(['desk'])).join(',') } });
    expect(lockout.status).toBe(400);
  });

  it('platform detail and update', async () => {
    const id = await h.createUser('000000', 'zhaoliu', 'pw', ['user']);
    expect((await h.call('POST', `${SYS}/user/update-platform`, { token: admin, body: { userId: id, userType: 2, userExt: '{"app":"lock"}' } })).status).toBe(200);
    const detail = await h.call<Rec>('GET', `${SYS}/user/platform-detail`, { token: admin, query: { id } });
    expect(detail.body.data).toMatchObject({ userType: 2, userExt: '{"app":"lock"}' });
    expect((await h.call('GET', `${SYS}/user/platform-detail`, { token: demo, query: { id } })).status).toBe(404);
  });
});

describe('data scopes and API scopes, applied by the server', () => {
  it('limits a role\'s notice list to its own rows with an "own rows" data scope', async () => {
    const [noticeMenu] = await menuIds(['notice']);
    const scope = await h.call<Rec>('POST', `${SYS}/data-scope/submit`, {
      token: admin, body: { menuId: noticeMenu, scopeName: '本人通知', resourceCode: 'notice_own', scopeColumn: 'create_user', scopeType: 2 },
    });
    expect(scope.status).toBe(200);
    const writer = await h.createUser('000000', 'writer', 'pw', ['administrator']);
    void writer;
    const writerToken = (await h.login('000000', 'writer', 'pw')).access_token;
    const mine = await h.call<Rec>('POST', '/api/blade-desk/notice/submit', { token: writerToken, body: { title: '我的通知', category: 1, releaseTime: '2026-01-01 00:00:00' } });
    expect(mine.status).toBe(200);
    await h.call('POST', '/api/blade-desk/notice/submit', { token: admin, body: { title: '别人的通知', category: 1, releaseTime: '2026-01-01 00:00:00' } });
    const roles = await h.call<Rec[]>('GET', `${SYS}/role/list`, { token: admin });
    const roleId = (await h.call<Rec>('POST', `${SYS}/role/submit`, { token: admin, body: { roleName: '只看自己', roleAlias: 'own_only', sort: 9 } })).body.data.id;
    void roles;
    const menus = await menuIds(['desk', 'notice', 'notice_view']);
    expect((await h.call('POST', `${SYS}/role/grant`, { token: admin, body: { roleIds: roleId, menuIds: menus.join(','), dataScopeIds: scope.body.data.id } })).status).toBe(200);
    const { inTenant, schema } = await import('../src/core/db/index.js');
    const { eq } = await import('drizzle-orm');
    await inTenant(h.server.ctx.db, { tenantId: '000000' }, (tx) => tx.update(schema.user).set({ roleId }).where(eq(schema.user.account, 'writer')));
    await h.server.ctx.users.invalidate('000000');
    const list = await h.call<Page<Rec>>('GET', '/api/blade-desk/notice/list', { token: writerToken });
    expect(list.body.data.records.map((r) => r.title)).toEqual(['我的通知']);
    const others = await h.call<Page<Rec>>('GET', '/api/blade-desk/notice/list', { token: admin, query: { title: '别人' } });
    expect((await h.call('GET', '/api/blade-desk/notice/detail', { token: writerToken, query: { id: others.body.data.records[0]!.id } })).status).toBe(404);
  });

  it('answers the scope ids granted to roles by category (role/scope-keys), of the caller\'s tenant only', async () => {
    const [noticeMenu] = await menuIds(['notice']);
    const data = await h.call<Rec>('POST', `${SYS}/data-scope/submit`, {
      token: admin, body: { menuId: noticeMenu, scopeName: '全部通知', resourceCode: 'notice_all_keys', scopeColumn: 'create_user', scopeType: 1 },
    });
    const apiScope = await h.call<Rec>('POST', `${SYS}/api-scope/submit`, {
      token: admin, query: { confirm: 'apiScopeLockout' }, body: { menuId: noticeMenu, scopeName: '通知详情', resourceCode: 'notice_detail_keys', scopePath: '/api/blade-desk/notice/detail', scopeType: 2 },
    });
    const gone = await h.call<Rec>('POST', `${SYS}/data-scope/submit`, {
      token: admin, body: { menuId: noticeMenu, scopeName: '将删除', resourceCode: 'notice_gone_keys', scopeColumn: 'create_user', scopeType: 2 },
    });
    const roleA = (await h.call<Rec>('POST', `${SYS}/role/submit`, { token: admin, body: { roleName: '范围A', roleAlias: 'scope_keys_a', sort: 10 } })).body.data.id;
    const roleB = (await h.call<Rec>('POST', `${SYS}/role/submit`, { token: admin, body: { roleName: '范围B', roleAlias: 'scope_keys_b', sort: 11 } })).body.data.id;
    const menus = (await menuIds(['desk', 'notice'])).join(',');
    expect((await h.call('POST', `${SYS}/role/grant`, {
      token: admin, body: { roleIds: roleA, menuIds: menus, dataScopeIds: `${data.body.data.id},${gone.body.data.id}`, apiScopeIds: apiScope.body.data.id },
    })).status).toBe(200);
    expect((await h.call('POST', `${SYS}/role/grant`, { token: admin, body: { roleIds: roleB, menuIds: menus, dataScopeIds: data.body.data.id } })).status).toBe(200);
    expect((await h.call('POST', `${SYS}/data-scope/remove`, { token: admin, query: { ids: gone.body.data.id } })).status).toBe(200);
    const keys = (roleIds: string, category: number, token = admin) => h.call<string[]>('GET', `${SYS}/role/scope-keys`, { token, query: { roleIds, category: String(category) } });
    expect((await keys(roleA, 1)).body.data).toEqual([data.body.data.id]);
    expect((await keys(roleA, 2)).body.data).toEqual([apiScope.body.data.id]);
    expect((await keys(`${roleA},${roleB}`, 1)).body.data).toEqual([data.body.data.id]);
    expect((await keys(roleB, 2)).body.data).toEqual([]);
    expect((await keys('', 1)).body.data).toEqual([]);
    expect((await keys(roleA, 3)).status).toBe(400);
    // another tenant's administrator learns nothing of the platform's roles
    expect((await keys(roleA, 1, demo)).body.data).toEqual([]);
  });

  it('lets only roles granted an API scope call the API it names', async () => {
    const [noticeMenu] = await menuIds(['notice']);
    const scope = await h.call<Rec>('POST', `${SYS}/api-scope/submit`, {
      token: admin, query: { confirm: 'apiScopeLockout' }, body: { menuId: noticeMenu, scopeName: '通知列表', resourceCode: 'notice_list_api', scopePath: '/api/blade-desk/notice/list', scopeType: 2 },
    });
    expect(scope.status).toBe(200);
    await h.createUser('000000', 'reader2', 'pw', ['user']);
    const token = (await h.login('000000', 'reader2', 'pw')).access_token;
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token })).status).toBe(403);
    const roles = await h.call<Rec[]>('GET', `${SYS}/role/list`, { token: admin });
    const userRole = roles.body.data.find((r) => r.roleAlias === 'user')!.id;
    const menus = await menuIds(['desk', 'notice', 'notice_view']);
    expect((await h.call('POST', `${SYS}/role/grant`, { token: admin, body: { roleIds: userRole, menuIds: menus.join(','), apiScopeIds: scope.body.data.id } })).status).toBe(200);
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token })).status).toBe(200);
    expect((await h.call('POST', `${SYS}/api-scope/remove`, { token: admin, query: { ids: scope.body.data.id } })).status).toBe(200);
  });

  it('warns before an API scope locks the caller or the super administrator out, and saves it once confirmed', async () => {
    const [noticeMenu] = await menuIds(['notice']);
    const body = { menuId: noticeMenu, scopeName: '通知详情锁', resourceCode: 'notice_detail_lock', scopePath: '/api/blade-desk/notice/lis*', scopeType: 2 };
    const count = async () => (await h.call<Page<Rec>>('GET', `${SYS}/api-scope/list`, { token: admin, query: { resourceCode: 'notice_detail_lock' } })).body.data.total;

    const warned = await h.call<Record<string, string>>('POST', `${SYS}/api-scope/submit`, { token: admin, body });
    expect(warned.status).toBe(409);
    expect(warned.body.data).toEqual({ confirm: 'apiScopeLockout' });
    expect(warned.body.msg).toBe('该接口权限尚未授予您, 保存后您将无法调用 1 个接口 (如 GET /api/blade-desk/notice/list); 请先确认, 或保存后立即在角色的权限设置中授予');
    const en = await h.call('POST', `${SYS}/api-scope/submit`, { token: admin, body, lang: 'en' });
    expect(en.body.msg).toContain('you can no longer make 1 calls (such as GET /api/blade-desk/notice/list)');
    expect(await count()).toBe(0);
    // another warning's word is not this one's
    expect((await h.call('POST', `${SYS}/api-scope/submit`, { token: admin, body, query: { confirm: 'somethingElse' } })).status).toBe(409);
    expect(await count()).toBe(0);

    const saved = await h.call<Rec>('POST', `${SYS}/api-scope/submit`, { token: admin, body, query: { confirm: 'apiScopeLockout' } });
    expect(saved.status).toBe(200);
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token: admin })).status).toBe(403);

    // granted to the administrator role, a change of it closes nothing to them: no warning
    const roles = await h.call<Rec[]>('GET', `${SYS}/role/list`, { token: admin });
    const adminRole = roles.body.data.find((r) => r.roleAlias === 'administrator')!.id;
    const keys = (await h.call<{ menu: string[]; dataScope: string[]; apiScope: string[] }>('GET', `${SYS}/menu/role-tree-keys`, { token: admin, query: { roleIds: adminRole } })).body.data;
    expect((await h.call('POST', `${SYS}/role/grant`, {
      token: admin, body: { roleIds: adminRole, menuIds: keys.menu.join(','), dataScopeIds: keys.dataScope.join(','), apiScopeIds: [...keys.apiScope, saved.body.data.id].join(',') },
    })).status).toBe(200);
    expect((await h.call('POST', `${SYS}/api-scope/submit`, { token: admin, body: { ...body, id: saved.body.data.id, scopeName: '通知详情' } })).status).toBe(200);
    // a second scope naming calls the first one (granted) already names closes nothing either
    expect((await h.call('POST', `${SYS}/api-scope/submit`, { token: admin, body: { ...body, resourceCode: 'notice_detail_lock2', scopePath: '/api/blade-desk/notice/list' } })).status).toBe(200);
    // a path no call answers closes nothing
    expect((await h.call('POST', `${SYS}/api-scope/submit`, { token: admin, body: { ...body, resourceCode: 'nowhere_lock', scopePath: '/api/nowhere/*' } })).status).toBe(200);
    expect((await h.call('GET', '/api/blade-desk/notice/list', { token: admin })).status).not.toBe(403);
  });
});

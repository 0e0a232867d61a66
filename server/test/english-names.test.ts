import type { DeptOption, RoleOption } from '@console/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/core/db/index.js';
import { areaDataSteps } from '../src/areas/index.js';
import { runDataSteps } from '../src/seed/runner.js';
import { DATA_STEPS } from '../src/seed/steps.js';
import { useServer } from './harness.js';

// Seeded roles and departments have English names (role_name_en, dept_name_en), answered to callers in
// English with the Chinese name as the fallback; the seeded administrators have an English nickname.
const h = useServer();

interface UserInfoAnswer {
  name: string;
  realName: string;
  roleName: string;
  deptName: string;
}

const sorted = (joined: string) => joined.split(',').sort();

describe('English names of seeded roles and departments', () => {
  it('user-info answers the role and department names in the caller\'s language', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    const zh = await h.call<UserInfoAnswer>('GET', '/api/blade-auth/oauth/user-info', { token: t.access_token, lang: 'zh' });
    const en = await h.call<UserInfoAnswer>('GET', '/api/blade-auth/oauth/user-info', { token: t.access_token, lang: 'en' });
    expect(zh.status).toBe(200);
    expect(sorted(zh.body.data.roleName)).toEqual(['用户', '超级管理员'].sort());
    expect(sorted(zh.body.data.deptName)).toEqual(['平台运营部', '研发中心'].sort());
    expect(sorted(en.body.data.roleName)).toEqual(['Super administrator', 'User']);
    expect(sorted(en.body.data.deptName)).toEqual(['Platform operations', 'R&D center']);
    // the seeded administrator: real name in Chinese, nickname (the English display) in English
    expect(en.body.data).toMatchObject({ realName: '管理员', name: 'Administrator' });
    expect(t.nick_name).toBe('Administrator');

    const demo = await h.login('541742', 'admin', 'admin');
    const demoEn = await h.call<UserInfoAnswer>('GET', '/api/blade-auth/oauth/user-info', { token: demo.access_token, lang: 'en' });
    expect(demoEn.body.data).toMatchObject({ roleName: 'Administrator', deptName: 'Demo tenant' });
    const demoZh = await h.call<UserInfoAnswer>('GET', '/api/blade-auth/oauth/user-info', { token: demo.access_token });
    expect(demoZh.body.data).toMatchObject({ roleName: '管理员', deptName: '演示租户' });
  });

  it('dept/select and role/select (the switch dialog) answer names in the caller\'s language', async () => {
    const t = await h.login('000000', 'admin', 'admin');
    const names = async (lang: 'zh' | 'en') => {
      const depts = await h.call<DeptOption[]>('GET', '/api/blade-system/dept/select', { token: t.access_token, lang });
      const roles = await h.call<RoleOption[]>('GET', '/api/blade-system/role/select', { token: t.access_token, lang });
      expect(depts.status).toBe(200);
      expect(roles.status).toBe(200);
      // the answers keep their shape: no English column leaks into them
      for (const d of depts.body.data) expect(Object.keys(d).sort()).toEqual(['deptName', 'id', 'parentId']);
      for (const r of roles.body.data) expect(Object.keys(r).sort()).toEqual(['id', 'roleAlias', 'roleName']);
      return {
        depts: depts.body.data.map((d) => d.deptName).sort(),
        roles: Object.fromEntries(roles.body.data.map((r) => [r.roleAlias, r.roleName])),
      };
    };
    expect(await names('zh')).toEqual({ depts: ['平台运营部', '研发中心'].sort(), roles: { administrator: '超级管理员', user: '用户' } });
    expect(await names('en')).toEqual({ depts: ['Platform operations', 'R&D center'], roles: { administrator: 'Super administrator', user: 'User' } });
  });

  it('falls back to the Chinese name for a role or department without an English one', async () => {
    const db = h.server.ctx.db;
    const role = and(eq(schema.role.tenantId, '541742'), eq(schema.role.roleAlias, 'admin'));
    const dept = and(eq(schema.dept.tenantId, '541742'), eq(schema.dept.deptName, '演示租户'));
    try {
      await db.update(schema.role).set({ roleNameEn: null }).where(role);
      await db.update(schema.dept).set({ deptNameEn: '  ' }).where(dept);
      const t = await h.login('541742', 'admin', 'admin');
      const en = await h.call<UserInfoAnswer>('GET', '/api/blade-auth/oauth/user-info', { token: t.access_token, lang: 'en' });
      expect(en.body.data).toMatchObject({ roleName: '管理员', deptName: '演示租户' });
      const roles = await h.call<RoleOption[]>('GET', '/api/blade-system/role/select', { token: t.access_token, lang: 'en' });
      expect(roles.body.data.map((r) => r.roleName)).toEqual(['管理员']);
      const depts = await h.call<DeptOption[]>('GET', '/api/blade-system/dept/select', { token: t.access_token, lang: 'en' });
      expect(depts.body.data.map((d) => d.deptName)).toEqual(['演示租户']);
    } finally {
      await db.update(schema.role).set({ roleNameEn: 'Administrator' }).where(role);
      await db.update(schema.dept).set({ deptNameEn: 'Demo tenant' }).where(dept);
    }
  });

  it('the data step upgrades an existing database, keeping an administrator\'s own names', async () => {
    const db = h.server.ctx.db;
    // the database as the earlier version left it: no English names, the seeded nicknames; plus an
    // administrator's edits (a renamed role, an own English department name, an own nickname), which must stay
    await db.update(schema.role).set({ roleNameEn: null });
    await db.update(schema.dept).set({ deptNameEn: null });
    await db.update(schema.user).set({ name: 'admin' }).where(eq(schema.user.account, 'admin'));
    await db.update(schema.role).set({ roleName: '普通用户' }).where(and(eq(schema.role.tenantId, '000000'), eq(schema.role.roleAlias, 'user')));
    await db.update(schema.dept).set({ deptNameEn: 'Engineering' }).where(and(eq(schema.dept.tenantId, '000000'), eq(schema.dept.deptName, '研发中心')));
    await db.update(schema.user).set({ name: '小王' }).where(and(eq(schema.user.tenantId, '541742'), eq(schema.user.account, 'admin')));
    await db.delete(schema.appDataStep).where(eq(schema.appDataStep.name, '0007-english-names'));

    expect(await runDataSteps(db, [...DATA_STEPS, ...areaDataSteps()])).toEqual(['0007-english-names']);

    const roles = await db.select({ tenantId: schema.role.tenantId, alias: schema.role.roleAlias, en: schema.role.roleNameEn }).from(schema.role);
    expect(Object.fromEntries(roles.map((r) => [`${r.tenantId}/${r.alias}`, r.en]))).toEqual({
      '000000/administrator': 'Super administrator',
      '000000/user': null, // renamed by an administrator: its English name is theirs to give
      '541742/admin': 'Administrator',
      // seeded with its English name by a later step (1201-flow-leave); this step leaves roles it did not seed alone
      '541742/hr': null,
    });
    const depts = await db.select({ zh: schema.dept.deptName, en: schema.dept.deptNameEn }).from(schema.dept);
    expect(Object.fromEntries(depts.map((d) => [d.zh, d.en]))).toEqual({ 平台运营部: 'Platform operations', 研发中心: 'Engineering', 演示租户: 'Demo tenant' });
    const admins = await db.select({ tenantId: schema.user.tenantId, name: schema.user.name }).from(schema.user).where(eq(schema.user.account, 'admin'));
    expect(Object.fromEntries(admins.map((u) => [u.tenantId, u.name]))).toEqual({ '000000': 'Administrator', 541742: '小王' });

    const t = await h.login('000000', 'admin', 'admin');
    const en = await h.call<UserInfoAnswer>('GET', '/api/blade-auth/oauth/user-info', { token: t.access_token, lang: 'en' });
    expect(sorted(en.body.data.roleName)).toEqual(['Super administrator', '普通用户']);
    expect(sorted(en.body.data.deptName)).toEqual(['Engineering', 'Platform operations']);

    // recorded: it does not run again
    expect(await runDataSteps(db, [...DATA_STEPS, ...areaDataSteps()])).toEqual([]);
  });
});

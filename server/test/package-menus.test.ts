import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './harness.js';

/**
 * Tenant packages never include the platform's own screens (issue 26): tenants, packages and product
 * authorisation, nor their buttons. The grant tree marks them; a package naming one is refused, naming it.
 */

interface MenuRow { id: string; code: string; parentId: string; children?: MenuRow[] }
interface GrantNode { id: string; title: string; platformOnly?: true; children?: GrantNode[] }
const SYS = '/api/blade-system';

const h = useServer();
let admin: string;
let menus: MenuRow[];

const flat = <T extends { children?: T[] }>(rows: T[]): T[] => rows.flatMap((r) => [r, ...flat(r.children ?? [])]);
const idOf = (code: string) => menus.find((m) => m.code === code)!.id;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  menus = flat((await h.call<MenuRow[]>('GET', `${SYS}/menu/list`, { token: admin })).body.data);
});

describe('a tenant package', () => {
  it('is offered the tree without the platform\'s screens: they and their buttons are marked platform-only', async () => {
    const tree = flat((await h.call<{ menu: GrantNode[] }>('GET', `${SYS}/menu/grant-tree`, { token: admin })).body.data.menu);
    const marked = new Set(tree.filter((n) => n.platformOnly).map((n) => n.id));
    for (const code of ['tenant', 'tenant_package', 'product_auth']) expect(marked.has(idOf(code)), code).toBe(true);
    // a button of the tenant screen goes with it; ordinary screens are not marked
    const tenantButton = menus.find((m) => m.parentId === idOf('tenant'));
    if (tenantButton) expect(marked.has(tenantButton.id)).toBe(true);
    for (const code of ['notice', 'user', 'role']) expect(marked.has(idOf(code)), code).toBe(false);
  });

  it('naming a platform screen is refused, naming it, and nothing is written; ordinary menus are saved', async () => {
    const refused = await h.call('POST', `${SYS}/tenant-package/submit`, {
      token: admin, lang: 'en', body: { packageName: '越权套餐', menuId: [idOf('notice'), idOf('tenant')].join(',') },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.data).toMatchObject({ menuId: expect.stringContaining('Tenants') });
    const zh = await h.call('POST', `${SYS}/tenant-package/submit`, { token: admin, body: { packageName: '越权套餐', menuId: idOf('product_auth') } });
    expect((zh.body.data as Record<string, string>).menuId).toMatch(/^租户套餐不能包含平台专用菜单: 产品授权/);
    const listed = await h.call<{ total: number }>('GET', `${SYS}/tenant-package/list`, { token: admin, query: { packageName: '越权套餐' } });
    expect(listed.body.data.total).toBe(0);

    const made = await h.call<{ id: string }>('POST', `${SYS}/tenant-package/submit`, { token: admin, body: { packageName: '基础套餐', menuId: [idOf('notice'), idOf('user')].join(',') } });
    expect(made.status, made.body.msg).toBe(200);
    // an update that adds one is refused as well
    const update = await h.call('POST', `${SYS}/tenant-package/submit`, { token: admin, body: { id: made.body.data.id, menuId: [idOf('notice'), idOf('tenant_package')].join(',') } });
    expect(update.status).toBe(400);
  });

  it('is the platform administrators\' alone', async () => {
    const tenantAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
    expect((await h.call('POST', `${SYS}/tenant-package/submit`, { token: tenantAdmin, body: { packageName: 'x', menuId: idOf('notice') } })).status).toBe(403);
  });
});

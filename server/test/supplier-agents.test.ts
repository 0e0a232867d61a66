import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './harness.js';

/**
 * Regional agents (issue 27): an agent holds regions of the region tree, a region belongs to one agent of a tenant
 * (held by the database, also under two concurrent saves), the regions held and the agents are listed for the
 * dispatch screens, and a tenant never sees another's.
 */

type Agent = { id: string; agentName: string; regionCodes: string; regionCodesName?: string };
const AGENT = '/api/omc-device/area-agent';

const h = useServer();
let demo: string;
let platform: string;
let viewer: string;

const save = (token: string, body: Record<string, unknown>, lang?: 'en') => h.call<Agent>('POST', `${AGENT}/submit`, { token, body, lang });
const names = async (token: string) => ((await h.call<{ records: Agent[] }>('GET', `${AGENT}/list`, { token, query: { size: 100 } })).body.data.records).map((a) => a.agentName).sort();

beforeAll(async () => {
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
  platform = (await h.login('000000', 'admin', 'admin')).access_token;
  const role = await h.call('POST', '/api/blade-system/role/submit', { token: demo, body: { roleName: '访客', roleAlias: 'viewer', sort: 9 } });
  expect(role.status, role.body.msg).toBe(200);
  await h.createUser('541742', 'viewer', 'Viewer#2026', ['viewer']);
  viewer = (await h.login('541742', 'viewer', 'Viewer#2026')).access_token;
});

describe('an area agent', () => {
  it('holds its regions, shown by name, and no other agent of the tenant may hold them', async () => {
    const east = await save(demo, { agentName: '华东代理', contact: '王五', phone: '13800138000', regionCodes: '330000,310000' });
    expect(east.status, east.body.msg).toBe(200);
    const detail = (await h.call<Agent>('GET', `${AGENT}/detail`, { token: demo, query: { id: east.body.data.id } })).body.data;
    expect(detail).toMatchObject({ agentName: '华东代理', regionCodes: '330000,310000' });
    expect(detail.regionCodesName).toContain('浙江省');

    const clash = await save(demo, { agentName: '浙江代理', regionCodes: '330000' });
    expect(clash.status).toBe(400);
    expect(clash.body.msg).toBe('区域「浙江省」已由代理「华东代理」代理');
    const inEnglish = await save(demo, { agentName: '浙江代理', regionCodes: '110000,330000' }, 'en');
    expect(inEnglish.body.msg).toBe('The region 浙江省 is already held by the agent 华东代理');
    // nothing of the refused saves was written
    expect(await names(demo)).toEqual(['华东代理']);

    // a region chosen twice is held once
    const twice = await save(demo, { agentName: '北京代理', regionCodes: '110000,110000' });
    expect(twice.status, twice.body.msg).toBe(200);
    expect(twice.body.data.regionCodes).toBe('110000');
    expect((await h.call('POST', `${AGENT}/remove`, { token: demo, query: { ids: twice.body.data.id } })).status).toBe(200);
  });

  it('lets go of a region it no longer holds, and of all of them when removed', async () => {
    const north = await save(demo, { agentName: '华北代理', regionCodes: '110000,120000' });
    expect(north.status, north.body.msg).toBe(200);
    const used = async (agentId?: string) => (await h.call<Array<{ regionCode: string; agentName: string }>>('GET', `${AGENT}/used-region`, { token: demo, query: agentId ? { agentId } : {} })).body.data;
    expect((await used()).map((r) => r.regionCode)).toEqual(['110000', '120000', '310000', '330000']);
    // the agent being edited does not see its own regions as taken
    expect((await used(north.body.data.id)).map((r) => r.regionCode)).toEqual(['310000', '330000']);

    const kept = await save(demo, { id: north.body.data.id, regionCodes: '110000' });
    expect(kept.status, kept.body.msg).toBe(200);
    const tianjin = await save(demo, { agentName: '天津代理', regionCodes: '120000' });
    expect(tianjin.status, tianjin.body.msg).toBe(200);

    const removed = await h.call('POST', `${AGENT}/remove`, { token: demo, query: { ids: `${north.body.data.id},${tianjin.body.data.id}` } });
    expect(removed.status, removed.body.msg).toBe(200);
    expect((await used()).map((r) => r.regionCode)).toEqual(['310000', '330000']);
    expect((await save(demo, { agentName: '北京新代理', regionCodes: '110000' })).status).toBe(200);

    const all = (await h.call<Array<{ agentName: string }>>('GET', `${AGENT}/all-agent`, { token: demo })).body.data;
    expect(all.map((a) => a.agentName).sort()).toEqual(['北京新代理', '华东代理']);
  });

  it('is given a region by one of two concurrent saves only', async () => {
    const [a, b] = await Promise.all([save(demo, { agentName: '甲', regionCodes: '440000' }), save(demo, { agentName: '乙', regionCodes: '440000' })]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const loser = a.status === 400 ? a : b;
    expect(loser.body.msg).toMatch(/^区域「广东省」已由代理「[甲乙]」代理$/);
    const holders = (await h.call<Array<{ regionCode: string; agentName: string }>>('GET', `${AGENT}/used-region`, { token: demo })).body.data.filter((r) => r.regionCode === '440000');
    expect(holders).toHaveLength(1);
  });

  it('refuses what is not a region, a missing name and a phone that is none', async () => {
    const unknown = await save(demo, { agentName: '未知', regionCodes: '999999' });
    expect(unknown.status).toBe(400);
    const nameless = await save(demo, { regionCodes: '450000' });
    expect(nameless.status).toBe(400);
    expect(nameless.body.msg).toContain('请输入代理名称');
    const phone = await save(demo, { agentName: '电话', regionCodes: '450000', phone: 'abc' });
    expect(phone.status).toBe(400);
    expect((await names(demo))).not.toContain('未知');
  });

  it('is the tenant\'s own: another tenant neither sees it nor is kept from the same regions', async () => {
    expect(await names(platform)).toEqual([]);
    const own = await save(platform, { agentName: '平台华东', regionCodes: '330000' });
    expect(own.status, own.body.msg).toBe(200);
    const theirs = (await h.call<{ records: Agent[] }>('GET', `${AGENT}/list`, { token: demo, query: { size: 100 } })).body.data.records;
    expect(theirs.map((a) => a.agentName)).not.toContain('平台华东');
    const id = theirs.find((a) => a.agentName === '华东代理')!.id;
    expect((await h.call('GET', `${AGENT}/detail`, { token: platform, query: { id } })).status).toBe(404);
    expect((await h.call('POST', `${AGENT}/remove`, { token: platform, query: { ids: id } })).status).not.toBe(200);
    expect(await names(demo)).toContain('华东代理');
  });

  it('is refused to a role without the screen', async () => {
    expect((await h.call('GET', `${AGENT}/list`, { token: viewer })).status).toBe(403);
    expect((await save(viewer, { agentName: '越权', regionCodes: '460000' })).status).toBe(403);
    expect((await h.call('GET', `${AGENT}/used-region`, { token: viewer })).status).toBe(403);
  });
});

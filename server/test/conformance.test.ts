import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { crudPaths } from '@console/contract';
import { firmwareResource } from '@console/contract/areas/device/index';
import { deliverResource } from '@console/contract/areas/product/index';
import { batchResource } from '@console/contract/areas/production/index';
import { areaAgentResource, areaDispatchResource } from '@console/contract/areas/supplier/index';
import { regionResource } from '@console/contract/areas/base/index';
import { inTenant, schema } from '../src/core/db/index.js';
import { PLATFORM_TABLES_WITH_TENANT_ID } from '../src/core/db/tenantSecurity.js';
import { nextId } from '../src/core/ids.js';
import { parseDateTime } from '../src/core/time.js';
import { areaResources } from '../src/areas/index.js';
import { flowDefinition, flowInstance, flowTask } from '../src/areas/flow/tables.js';
import { describeResource, KIT_CHECKS, type Kit, type ResourceOptions } from './conformance/kit.js';
import { type Account, PLATFORM_ADMIN } from './conformance/support.js';
import { useServer } from './harness.js';
import { recordStatements, withoutTenantKey } from './tenant-key.js';
import { attach } from '../src/areas/resource/tables.js';
import { postsaleUser } from '../src/areas/postsale/tables.js';

/**
 * The conformance kit over every resource a module binds: a new resource gets the standard tests by being
 * bound. What a resource needs beyond generated values goes in OPTIONS, keyed by its code; a group of
 * tests it cannot pass is skipped only with a reason, and shows as a skipped test.
 */
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** an S3-compatible service's address (object storage configurations) */
const ossEndpoint = ({ n }: { n: number }) => `https://s3-${n}.example.com:9000`;

/** an SN prefix is letters and digits; a few devices per batch keep the kit quick */
const batchValues = { snPrefix: ({ n }: { n: number }) => `K${n.toString(36).toUpperCase()}`, quantity: ({ n }: { n: number }) => 1 + (n % 3) };

const OPTIONS: Record<string, Omit<ResourceOptions, 'harness'>> = {
  param: {},
  notice: {},
  // a region's id is its code (6, 9 or 12 digits): 99… is no seeded province; 9 digits keep every n unique
  region: { values: { code: ({ n }) => `99${String(n).padStart(7, '0')}` } },
  client: { values: { authorizedGrantTypes: ({ n }) => ['password,refresh_token', 'captcha', 'password,social'][n % 3]! } },
  // passwords arrive as the hex MD5 the console sends
  user: { values: { password: ({ n }) => md5(`kit-password-${n}`) } },
  // a new tenant's administrator password, set in the form (empty: one is made and answered once)
  tenant: { values: { adminPassword: ({ n }) => md5(`kit-admin-${n}`) } },
  oss: { values: { endpoint: ossEndpoint } },
  // sizes are whole bytes (a bigint column); the storage configurations named need a valid endpoint
  attach: { values: { attachSize: ({ n }) => 1000 + n }, refs: { oss: { values: { endpoint: ossEndpoint } } } },
  // sealed rows can be neither changed nor removed (sealing is dict.test.ts's): the kit's rows are not sealed
  dict: { values: { isSealed: 0 } },
  dictbiz: { values: { isSealed: 0 } },
  // tree and lazy-tree show menus, not buttons (category 2): the kit's rows are menus
  menu: { values: { category: 1 } },
  batch: { values: batchValues },
  // an agent's regions are rows of the region tree (9 digits, 98…: none seeded), and one agent's alone
  area_agent: { refs: { region: { values: { code: ({ n }) => `98${String(n).padStart(7, '0')}` } } } },
  // a rewrite names a device's SN (a batch's first) and a new SN of letters and digits
  rewrite_sn: {
    values: {
      oldSn: async ({ kit }) => String((await kit.create({ def: batchResource, overrides: { quantity: 1 } })).snStart),
      newSn: ({ n }) => `RW${n.toString(36).toUpperCase().padStart(4, '0')}`,
    },
  },
  // the customer is a tenant; a delivery from a batch must be of its product and within its quantity (product.test.ts)
  deliver: {
    values: {
      productId: async ({ kit, n }) => {
        const shipped = await kit.create({ def: batchResource, overrides: { quantity: 5 } });
        deliveryBatches.set(n, String(shipped.id));
        return String(shipped.productId);
      },
      batchId: ({ n }) => deliveryBatches.get(n) ?? null,
      customerTenantId: ({ n }) => (n % 2 ? '541742' : '000000'),
      quantity: ({ n }) => 1 + (n % 3),
    },
    skip: {
      refs: 'a delivery names a batch of its own product (the kit\'s ref rows are of other products): references are tested in product.test.ts, "deliveries"',
      search: 'the kit\'s second values (x-prefixed tenant ids, batches of other products) are refused by the delivery rules: the filters are tested in product.test.ts, "deliveries"',
    },
  },
  // a column key is a word (it names attributes.<key>)
  device_column: { values: { columnKey: ({ n }) => `k${n.toString(36)}` } },
  // a device row written by the kit is an SN of its own (add-batch writes them otherwise); a batch's device is the ownership row
  factory_device: { values: { sn: ({ n }) => `KIT${String(n).padStart(8, '0')}` }, devices: { field: 'sn', device: deliveredDevice, row: (_kit, _who, sn) => factoryDeviceId(sn) } },
  // the device lookup's rows are the field state of a device (its id the factory device's)
  device_info: { devices: { field: 'sn', device: deliveredDevice, row: (_kit, _who, sn) => deviceStatusOf(sn) } },
  ota_progress: { devices: { field: 'deviceSn', device: deliveredDevice } },
  ota_log: { devices: { field: 'deviceSn', device: deliveredDevice } },
  face_log: { devices: { field: 'deviceSn', device: deliveredDevice } },
  cit: { devices: { field: 'deviceSn', device: deliveredDevice } },
  cert: { devices: { field: 'deviceSn', device: deliveredDevice } },
  // a firmware's file is one the server stored (its digests are measured): the kit registers one per row
  firmware: { values: { file: ({ n }) => storedFile(n) } },
  // a task upgrades devices of its firmware's product: all of them, a batch of it, or its SNs
  ota_task: {
    values: {
      firmwareId: async ({ kit, n }) => (await firmwareWithDevices(kit, n)).firmwareId,
      scope: ({ n }) => OTA_SCOPES[n % 3]!,
      batchId: ({ n }) => (OTA_SCOPES[n % 3] === 'batch' ? otaFixtures.get(n)?.batchId ?? null : null),
      deviceSns: ({ n }) => (OTA_SCOPES[n % 3] === 'selected' ? otaFixtures.get(n)?.sn ?? null : null),
    },
    skip: {
      refs: 'a task\'s product is its firmware\'s and its batch must be of that product (the kit\'s ref rows are of other products): references are tested in ota.test.ts',
      search: 'the kit\'s second values (another firmware, scope or batch for the same row) break the rule above: the filters are tested in ota.test.ts',
    },
  },
  // commands and emergency requests name a device the tenant owns (a batch's, delivered to it, of a type granted to it)
  device_control: {
    values: { deviceSn: ({ kit, who }) => deviceSnFor(kit, who) },
    devices: { field: 'deviceSn', device: deliveredDevice, kept: 'a tenant keeps the history of the commands it sent (decisions.md, "Records follow the device")' },
  },
  emergency_unlock: { values: { deviceSn: ({ kit, who }) => deviceSnFor(kit, who) }, devices: { field: 'deviceSn', device: deliveredDevice } },
  // a device's area names a lock the tenant owns and a path of the region tree
  area: {
    values: { deviceSn: ({ kit, who }) => deviceSnFor(kit, who), code: ({ n }) => ['330000', '330000,330100', '310000'][n % 3]! },
    devices: { field: 'deviceSn', device: deliveredDevice, onePerDevice: true },
    // its agent holds a region of its own (area_agent below)
    refs: { region: { values: { code: ({ n }) => `98${String(n).padStart(7, '0')}` } } },
  },
  // a region change names a lock the tenant owns and a path of the tree
  area_oa: {
    values: { deviceSn: ({ kit, who }) => deviceSnFor(kit, who), code: ({ kit, who, n }) => regionFor(kit, who, n) },
    devices: { field: 'deviceSn', device: deliveredDevice, onePerDevice: true },
    refs: { region: { values: { code: ({ n }) => `98${String(n).padStart(7, '0')}` } }, area_dispatch: { create: kitDispatch } },
  },
  // a dispatch names a lock the tenant owns and a region its agent holds
  area_dispatch: {
    values: dispatchValues(),
    omit: { batchNo: 'a dispatch names one SN or one batch; the kit\'s rows name an SN' },
    // the agent it names is the one holding the kit's regions
    refs: { area_agent: { create: async (kit, who) => (await agentOf(kit, who)).agentId } },
    skip: {
      search: 'a dispatch names an SN or a batch, never both, and the kit searches both of one row: the filters are tested in supplier-dispatch.test.ts',
    },
  },
  area_dispatch_oa: {
    values: dispatchValues(),
    omit: { batchNo: 'a dispatch names one SN or one batch; the kit\'s rows name an SN' },
    skip: {
      refs: 'the agent must hold the dispatch\'s region, which the kit\'s agent rows do not: references are tested in supplier-dispatch.test.ts',
      search: 'a dispatch names an SN or a batch, never both, and the kit searches both of one row: the filters are tested in supplier-dispatch.test.ts',
    },
  },
  // a warning's paths are paths of the tree
  region_wrong_log: { values: { dispatchedCode: ({ kit, who, n }) => regionFor(kit, who, n), activatedCode: ({ n }) => ['440000,440300', '310000'][n % 2]! } },
  // a modify log's paths are paths of the tree
  area_modify_log: { values: { newCode: ({ n }) => ['330000', '330000,330100', '310000'][n % 3]!, oldCode: ({ n }) => ['310000', '330000'][n % 2]! } },
  // issued codes are read of the locks the tenant owns now
  emergency_code: { values: { deviceSn: ({ kit, who }) => deviceSnFor(kit, who) }, devices: { field: 'deviceSn', device: deliveredDevice } },
  // app users register in the app: the kit writes them as registration does (a password hash, a phone of their own)
  postsale_user: { madeElsewhere: 'the phone app registers them', values: { phone: ({ n }) => appPhone({ n }) }, insert: (_kit, who, values) => insertAppUser(who, values) },
  // a binding names a lock delivered to the tenant, as its owner (one owner per lock: each row a lock of its own)
  postsale_device: {
    values: { deviceSn: ({ kit, who }) => deviceSnFor(kit, who), role: 'owner' },
    devices: { field: 'deviceSn', device: deliveredDevice, again: { status: 400, why: 'a lock has one owner: a second owner\'s binding is refused, naming the lock' } },
    serverRefs: { productId: 'the lock\'s product, read from the lock when it is bound' },
    skip: {
      search: 'a member\'s binding needs the lock\'s owner first, and the kit searches rows of either role made alone: the filters are tested in postsale.test.ts',
      sort: 'the kit sorts rows of either role made alone (a member needs an owner): the bind time is sorted in postsale.test.ts\'s lists',
    },
  },
  // a record names a lock of the tenant; a replacement's new lock is one too (postsale.test.ts)
  postsale_record: {
    values: { deviceSn: ({ kit, who }) => deviceSnFor(kit, who) },
    omit: { newDeviceSn: 'a replacement\'s new lock must be another lock of the tenant: tested in postsale.test.ts' },
    devices: { field: 'deviceSn', device: deliveredDevice, kept: 'a tenant keeps the service records of a lock it no longer holds (decisions.md, "Records follow the device")' },
    serverRefs: { handler: 'who took the record, set by its actions' },
  },
  feedback_reply_list: { serverRefs: { replier: 'who wrote the reply, set by the server' } },
  feedback: { madeElsewhere: 'the phone app sends them', values: { images: ({ n }) => `/files/kit/${n}-a.jpg,/files/kit/${n}-b.jpg` } },
  // orders are placed in the app; unpaid ones can be removed
  storage_order: { madeElsewhere: 'the phone app places them', values: { payState: 'unpaid', currency: 'CNY', payChannel: ({ n }) => (n % 2 ? 'wechat' : 'alipay') } },
  payment_setting: {
    skip: Object.fromEntries((['crud', 'immutable', 'tenant', 'permissions', 'search', 'sort', 'refs'] as const).map((c) => [c,
      'one row per channel of each tenant, made with the tenant and never added or removed: the kit\'s many rows cannot exist; storage.test.ts covers its reads, saves, checks, masking and tenants'])),
  },
  // a model's key is the process id of its diagram: a letter, then letters, digits, _ or -
  flow_model: { values: { modelKey: ({ n }) => `kit_${n.toString(36)}` } },
  // the workflow's lists are views of definitions, instances and tasks: the kit writes rows each list shows its writer
  flow_manager: { insert: (kit, who, values) => insertFlowRow(kit, who, 'definition', values) },
  work_start: { insert: (kit, who, values) => insertFlowRow(kit, who, 'definition', values) },
  flow_follow: { values: { status: (c) => (c.n % 2 ? 'incident' : 'running') }, insert: (kit, who, values) => insertFlowRow(kit, who, 'instance', values) },
  work_send: { insert: (kit, who, values) => insertFlowRow(kit, who, 'instance', values) },
  work_claim: { values: { status: 'open' }, insert: (kit, who, values) => insertFlowRow(kit, who, 'offered', values) },
  work_todo: { values: { status: 'open' }, insert: (kit, who, values) => insertFlowRow(kit, who, 'assigned', values) },
  work_done: { values: { status: 'completed' }, insert: (kit, who, values) => insertFlowRow(kit, who, 'done', values) },
};

/**
 * A row of a workflow list, written as the engine would leave it, with the generated values: a definition of a
 * key of its own (the newest version, active), a running instance the writer started, or a task offered to,
 * assigned to or completed by the writer.
 */
async function insertFlowRow(kit: Kit, who: Account, kind: 'definition' | 'instance' | 'offered' | 'assigned' | 'done', values: Record<string, unknown>): Promise<string> {
  const id = nextId();
  const key = `kit_${id}`;
  const [user] = await inTenant(h.server.ctx.db, { tenantId: who.tenantId }, (tx) => tx.select({ id: schema.user.id }).from(schema.user)
    .where(and(eq(schema.user.tenantId, who.tenantId), eq(schema.user.account, who.account), eq(schema.user.isDeleted, 0))));
  const userId = String(user!.id);
  const def = kit.def;
  const given = Object.fromEntries(Object.entries(values).filter(([k]) => Object.hasOwn(def.fields, k)).map(([k, v]) => [k, def.fields[k]!.type === 'datetime' && typeof v === 'string' ? parseDateTime(v) : v]));
  await inTenant(h.server.ctx.db, { tenantId: who.tenantId }, async (tx) => {
    if (kind === 'definition') {
      await tx.insert(flowDefinition).values({
        id, tenantId: who.tenantId, deploymentId: nextId(), processKey: key, name: key, version: 1, xml: '<definitions/>', compiled: '{}', suspended: 0, ...given,
      } as typeof flowDefinition.$inferInsert);
    } else if (kind === 'instance') {
      await tx.insert(flowInstance).values({
        id, tenantId: who.tenantId, definitionId: nextId(), processKey: key, processName: key, status: 'running', ...given, startUser: userId,
      } as typeof flowInstance.$inferInsert);
    } else {
      await tx.insert(flowTask).values({
        id, tenantId: who.tenantId, instanceId: nextId(), executionId: key, taskDefinitionKey: 'step', name: key, ...given,
        ...(kind === 'offered' ? { assignee: null, candidateUsers: [userId], status: 'open' } : kind === 'assigned' ? { assignee: userId, status: 'open' } : { assignee: userId, completedBy: userId, status: 'completed', endTime: given.endTime ?? new Date() }),
      } as typeof flowTask.$inferInsert);
    }
  });
  return id;
}

const OTA_SCOPES = ['all', 'batch', 'selected'] as const;
const otaFixtures = new Map<number, { firmwareId: string; batchId: string; sn: string }>();

/** an attachment of the platform's, as put-file registers one (the firmware's hook reads its size and digests) */
async function storedFile(n: number): Promise<string> {
  const key = `000000/20260101/${n.toString(16).padStart(32, '0')}.bin`;
  await inTenant(h.server.ctx.db, { tenantId: '000000' }, (tx) => tx.insert(attach).values({
    id: nextId(), tenantId: '000000', link: `/files/${key}`, name: key, originalName: `kit-${n}.bin`, extension: 'bin', contentType: 'application/octet-stream',
    attachSize: 1000 + n, sha256: md5(`${n}`).repeat(2), md5: md5(`${n}`),
  }).onConflictDoNothing());
  return `/files/${key}`;
}

/** a published firmware of a product with a batch of two devices */
async function firmwareWithDevices(kit: Kit, n: number): Promise<{ firmwareId: string; batchId: string; sn: string }> {
  const made = await kit.create({ def: batchResource, overrides: { quantity: 2 } });
  const fw = await kit.create({ def: firmwareResource, overrides: { productId: String(made.productId) } });
  await h.server.ctx.db.execute(sql`update ymy_firmware set state = 2 where id = ${String(fw.id)}::bigint`);
  const fixture = { firmwareId: String(fw.id), batchId: String(made.id), sn: String(made.snStart) };
  otaFixtures.set(n, fixture);
  return fixture;
}

/** a device's SN, delivered to `who`'s tenant (the first of a new batch; its product's type is granted to the other tenant) */
async function deviceSnFor(kit: Kit, who: Account): Promise<string> {
  return (await deliveredDevice(kit, who)).sn;
}

/** A new batch's one device, delivered to `owner`'s tenant through the delivery screen (the platform: not delivered). */
async function deliveredDevice(kit: Kit, owner: Account): Promise<{ sn: string; deliveryId?: string }> {
  const made = await kit.create({ def: batchResource, who: PLATFORM_ADMIN, overrides: { quantity: 1 } });
  const sn = String(made.snStart);
  if (owner.tenantId === PLATFORM_ADMIN.tenantId) return { sn };
  const shipped = await kit.call<Record<string, unknown>>(PLATFORM_ADMIN, 'POST', crudPaths(deliverResource).submit, {
    body: { productId: String(made.productId), batchId: String(made.id), customerTenantId: owner.tenantId, quantity: 1, deliverTime: '2026-11-20 10:00:00' },
  });
  if (shipped.status !== 200) throw new Error(`conformance: delivering ${sn} to ${owner.tenantId}: ${shipped.status} ${shipped.body.msg}`);
  return { sn, deliveryId: String(shipped.body.data.id) };
}

/**
 * An agent of `who`'s tenant holding a root region of its own (97…: none seeded), and the regions under it the kit's
 * rows name (one per generated row, so that a row's second value is another region the same agent holds)
 */
const kitAgents = new Map<string, Promise<{ agentId: string; root: string }>>();
const kitRegions = new Map<string, Promise<string>>();
function agentOf(kit: Kit, who: Account): Promise<{ agentId: string; root: string }> {
  if (!kitAgents.has(who.tenantId)) {
    kitAgents.set(who.tenantId, (async () => {
      const root = `97${String(kitAgents.size).padStart(7, '0')}`;
      await kit.create({ def: regionResource, who: PLATFORM_ADMIN, overrides: { code: root, parentId: '0' } });
      const agent = await kit.create({ def: areaAgentResource, who, overrides: { agentName: `kit-agent-${root}`, regionCodes: root } });
      return { agentId: String(agent.id), root };
    })());
  }
  return kitAgents.get(who.tenantId)!;
}
async function regionFor(kit: Kit, who: Account, n: number): Promise<string> {
  const { root } = await agentOf(kit, who);
  const code = `${root}${String(n % 1000).padStart(3, '0')}`;
  if (!kitRegions.has(code)) kitRegions.set(code, kit.create({ def: regionResource, who: PLATFORM_ADMIN, overrides: { code, parentId: root } }).then(() => `${root},${code}`));
  return kitRegions.get(code)!;
}

function dispatchValues(): NonNullable<ResourceOptions['values']> {
  return {
    code: ({ kit, who, n }) => regionFor(kit, who, n),
    agentId: async ({ kit, who }) => (await agentOf(kit, who)).agentId,
    deviceSn: ({ kit, who }) => deviceSnFor(kit, who),
  };
}

/** a dispatch of one of `who`'s locks, for what names one */
async function kitDispatch(kit: Kit, who: Account): Promise<string> {
  const { agentId } = await agentOf(kit, who);
  const code = await regionFor(kit, who, Number(BigInt(nextId()) % 1000n));
  const res = await kit.call<Record<string, unknown>>(who, 'POST', crudPaths(areaDispatchResource).submit, { body: { code, agentId, deviceSn: await deviceSnFor(kit, who) } });
  if (res.status !== 200) throw new Error(`conformance: a dispatch for ${who.tenantId}: ${res.status} ${res.body.msg}`);
  return String(res.body.data.id);
}

const rowsOf = (res: unknown) => (res as { rows: Array<{ id: string }> }).rows;

async function factoryDeviceId(sn: string): Promise<string> {
  return String(rowsOf(await h.server.ctx.db.execute(sql`select id from ymy_factory_device where sn = ${sn}`))[0]!.id);
}

/** the device's field state, as its first report leaves it */
async function deviceStatusOf(sn: string): Promise<string> {
  return String(rowsOf(await h.server.ctx.db.execute(sql`
    insert into ymy_device_status (id, sn, product_id) select id, sn, product_id from ymy_factory_device where sn = ${sn} returning id`))[0]!.id);
}

const h = useServer();
const bound = areaResources().map((b) => b.def);

describe('conformance kit coverage', () => {
  it('has options only for bound resources, and reasons for every skip', () => {
    const codes = bound.map((d) => d.code);
    expect(Object.keys(OPTIONS).filter((c) => !codes.includes(c))).toEqual([]);
    for (const [code, o] of Object.entries(OPTIONS)) {
      for (const [check, reason] of Object.entries(o.skip ?? {})) {
        expect(KIT_CHECKS, code).toContain(check);
        expect(reason?.trim(), `${code}: skip ${check}`).toBeTruthy();
      }
    }
  });
});

/**
 * A tenant sees only the product types authorised to it (product_auth): every type the kit makes is granted
 * to the other tenant, so that the product catalogue and what refers to it read like any platform data.
 */
const grantProductTypes: ResourceOptions['onCreated'] = async (kit, def, row) => {
  if (def.code !== 'product_type') return;
  await h.server.ctx.db.execute(sql`insert into ymy_product_auth (id, tenant_id, type_id) values (${nextId()}, ${kit.other.tenantId}, ${String(row.id)}::bigint)`);
};

/** the batch each generated delivery ships from, by the row's n (its product is the batch's) */
const deliveryBatches = new Map<number, string>();

/** a mobile number per generated row */
function appPhone({ n }: { n: number }): string {
  return `139${String(n).padStart(8, '0')}`;
}

/** an app user of `who`'s tenant, as the app's sign-up writes one (its password hash is not a field) */
async function insertAppUser(who: Account, values: Record<string, unknown> = {}): Promise<string> {
  const id = nextId();
  const given = Object.fromEntries(Object.entries(values).filter(([k]) => ['phone', 'nickname', 'avatar', 'status', 'passwordReset', 'registerTime', 'lastLoginTime'].includes(k))
    .map(([k, v]) => [k, (k === 'registerTime' || k === 'lastLoginTime') && typeof v === 'string' ? parseDateTime(v) : v]));
  await inTenant(h.server.ctx.db, { tenantId: who.tenantId }, (tx) => tx.insert(postsaleUser).values({
    id, tenantId: who.tenantId, phone: appPhone({ n: Number(BigInt(id) % 100_000_000n) }), passwordHash: md5(`kit-app-${id}`), ...given,
  } as typeof postsaleUser.$inferInsert));
  return id;
}

/** how a row of a resource is made wherever another refers to it (a batch needs a valid SN prefix) */
const SHARED_REFS: ResourceOptions['refs'] = {
  postsale_user: { create: (_kit, who) => insertAppUser(who) },
  feedback: { create: (kit, who) => kit.insertRow(kit.harness.server.ctx.resources.get('feedback').def, who, { content: `kit feedback ${nextId()}`, state: 0, replyCount: 0 }) },
  batch: { values: batchValues },
  firmware: { values: { file: ({ n }) => storedFile(n) } },
  ota_task: {
    create: async (kit, who) => {
      const n = Number(BigInt(nextId()) % 1_000_000n);
      const { firmwareId } = await firmwareWithDevices(kit, n);
      return String((await kit.create({ def: kit.harness.server.ctx.resources.get('ota_task').def, who, overrides: { firmwareId, scope: 'all', taskName: `kit-task-${n}`, rateLimit: 60 } })).id);
    },
  },
  emergency_unlock: { values: { deviceSn: ({ kit, who }) => deviceSnFor(kit, who) } },
  area_dispatch: { create: kitDispatch },
};

for (const def of bound) {
  const own = OPTIONS[def.code];
  describeResource(def, { ...own, refs: { ...SHARED_REFS, ...own?.refs }, onCreated: grantProductTypes, harness: h });
}

// On PostgreSQL, every statement of the kit's runs is recorded: a statement on a tenant table names the tenant
// (docs/sharding.md: what a database sharded by tenant_id routes by)
const statements = process.env.DATABASE_URL ? recordStatements() : undefined;
describe.runIf(statements)('the tenant key', () => {
  it('every statement on a tenant table, but those run across tenants on purpose, names tenant_id', async () => {
    statements!.stop();
    const res = await h.server.ctx.db.execute(sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'tenant_id'`);
    // the platform's tables that name a tenant (the tenants themselves, the product types granted to each) are
    // reference tables when sharded
    const tenantTables = new Set((res as unknown as { rows: Array<{ table_name: string }> }).rows.map((r) => r.table_name)
      .filter((t) => !Object.hasOwn(PLATFORM_TABLES_WITH_TENANT_ID, t)));
    const recorded = [...statements!.recorded.values()];
    expect(recorded.length).toBeGreaterThan(100);
    const missing = withoutTenantKey(recorded, tenantTables);
    expect(missing.map((s) => `${s.role}: ${s.text.slice(0, 300)}`)).toEqual([]);
  });
});

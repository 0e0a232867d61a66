import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TableUpkeep } from '../src/core/db/upkeep.js';
import { makeProduct } from './catalogue-fixture.js';
import { useServer } from './harness.js';

/**
 * The planner's statistics after bulk writes (PGlite runs no autovacuum; PostgreSQL's lags): a batch of devices,
 * its removal and an import leave their table analyzed a moment later; a few rows wait for more.
 */
const h = useServer();
type Row = Record<string, unknown> & { id: string };
let admin: string;
let productId: string;
let factoryId: string;
const IPC = '/sc/ymy-ipc/back';

const estimate = async (table: string) => {
  const r = await h.server.ctx.db.execute(sql`select reltuples::float8 as n from pg_class where relname = ${table}`) as unknown as { rows: Array<{ n: number }> };
  return Number(r.rows[0]!.n);
};

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  ({ productId } = await makeProduct(h, admin, { typeName: '统计锁', typeCode: 'STAT', modelCode: 'S1', productName: 'S1', productCode: 'S1' }));
  factoryId = (await h.call<Row>('POST', `${IPC}/add-factory`, { token: admin, body: { factoryName: '统计工厂', factoryCode: 'STAT-F' } })).body.data.id;
});

describe('table upkeep', () => {
  it('analyzes the devices\' table after a batch is made and after it is removed, not after a few rows', async () => {
    const before = await estimate('ymy_factory_device');
    const big = await h.call<Row>('POST', `${IPC}/add-batch`, { token: admin, body: { batchNo: 'STAT-1', factoryId, productId, cloudVendor: 1, quantity: 3000, snPrefix: 'STA' } });
    expect(big.status, big.body.msg).toBe(200);
    await h.server.ctx.upkeep.settled();
    expect(await estimate('ymy_factory_device')).toBe(before <= 0 ? 3000 : before + 3000);

    const small = await h.call<Row>('POST', `${IPC}/add-batch`, { token: admin, body: { batchNo: 'STAT-2', factoryId, productId, cloudVendor: 1, quantity: 5, snPrefix: 'STB' } });
    expect(small.status).toBe(200);
    await h.server.ctx.upkeep.settled();
    expect(await estimate('ymy_factory_device')).toBe(before <= 0 ? 3000 : before + 3000);

    const removed = await h.call('POST', `${IPC}/del-batch`, { token: admin, query: { ids: big.body.data.id } });
    expect(removed.status).toBe(200);
    await h.server.ctx.upkeep.settled();
    expect(await estimate('ymy_factory_device')).toBe(before <= 0 ? 5 : before + 5);
  });

  it('on PGlite, analyzes at start the tables that hold rows and never were; on PostgreSQL leaves that to autovacuum', async () => {
    const db = h.server.ctx.db;
    await db.execute(sql.raw('create table test_upkeep_probe (id int primary key)'));
    await db.execute(sql.raw('insert into test_upkeep_probe select generate_series(1, 250)'));
    expect(await estimate('test_upkeep_probe')).toBeLessThan(0);
    const upkeep = new TableUpkeep(db, h.server.ctx.dbKind, (e) => {
      throw e;
    });
    upkeep.start();
    await upkeep.settled();
    expect(await estimate('test_upkeep_probe')).toBe(h.server.ctx.dbKind === 'pglite' ? 250 : -1);
    await upkeep.close();
  });
});

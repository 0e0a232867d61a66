import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useServer } from './harness.js';

/**
 * `sync-product-info` (issue 10) through the vendors' official SDKs, against stand-ins of the two clouds'
 * APIs on this machine (TENCENT_IOT_ENDPOINT / ALIBABA_IOT_ENDPOINT): the requests are the SDKs' own,
 * signed with the configured keys; without keys the call names the missing setting.
 */
type Row = Record<string, unknown> & { id: string };
const seen: Array<{ vendor: string; action: string; authorised: boolean }> = [];

const readBody = (req: IncomingMessage) => new Promise<string>((resolve) => {
  let text = '';
  req.on('data', (c: Buffer) => (text += c.toString()));
  req.on('end', () => resolve(text));
});

const tencent = createServer(async (req, res) => {
  const body = await readBody(req);
  seen.push({ vendor: 'tencent', action: String(req.headers['x-tc-action']), authorised: String(req.headers.authorization).startsWith('TC3-HMAC-SHA256 Credential=AKIDbench/') });
  const offset = Number((JSON.parse(body || '{}') as { Offset?: number }).Offset ?? 0);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ Response: { Total: 2, Products: offset ? [] : [
    { ProductId: 'TCSYNC01', ProductName: '门锁 K1', ProductDesc: '云端描述 K1' },
    { ProductId: 'TCNEW002', ProductName: '未登记的产品', ProductDesc: '' },
  ], RequestId: 'req-1' } }));
});

const alibaba = createServer(async (req, res) => {
  await readBody(req);
  const url = new URL(req.url ?? '/', 'http://x');
  // the SDK's v3 signature: the action in x-acs-action, the key in the Authorization header (older: the query)
  const action = String(req.headers['x-acs-action'] ?? url.searchParams.get('Action') ?? '');
  seen.push({ vendor: 'alibaba', action, authorised: url.searchParams.get('AccessKeyId') === 'LTAIbench' || String(req.headers.authorization ?? '').includes('Credential=LTAIbench') });
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ Success: true, RequestId: 'r', Data: { CurrentPage: 1, PageCount: 1, PageSize: 200, Total: 1, List: { ProductInfo: [{ ProductKey: 'a1Sync01', ProductName: '阿里门锁', Description: '阿里描述' }] } } }));
});

const listen = (s: ReturnType<typeof createServer>) => new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));
const [tencentPort, alibabaPort] = await Promise.all([listen(tencent), listen(alibaba)]);
afterAll(() => {
  tencent.close();
  alibaba.close();
});

const h = useServer({
  TENCENT_IOT_SECRET_ID: 'AKIDbench', TENCENT_IOT_SECRET_KEY: 'bench-secret-key', TENCENT_IOT_ENDPOINT: `http://127.0.0.1:${tencentPort}`,
  ALIBABA_IOT_ACCESS_KEY_ID: 'LTAIbench', ALIBABA_IOT_ACCESS_KEY_SECRET: 'bench-secret', ALIBABA_IOT_ENDPOINT: `http://127.0.0.1:${alibabaPort}`,
});
const bare = useServer();
let admin: string;

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  const type = await h.call<Row>('POST', '/api/ymy-product/type/submit', { token: admin, body: { typeName: '同步锁', typeCode: 'SYNC' } });
  const model = await h.call<Row>('POST', '/api/ymy-product/model/submit', { token: admin, body: { typeId: type.body.data.id, modelName: 'S1', modelCode: 'S1' } });
  for (const [code, vendor, cloudProductId] of [['SYNC-T', 1, 'TCSYNC01'], ['SYNC-A', 2, 'a1Sync01']] as const) {
    await h.call('POST', '/api/ymy-product/product/submit', { token: admin, body: { productName: code, productCode: code, typeId: type.body.data.id, modelId: model.body.data.id, cloudVendor: vendor, cloudProductId } });
  }
});

describe('sync-product-info', () => {
  it('pulls Tencent IoT Explorer products with the signed SDK call, updates the registered ones and lists the others', async () => {
    const res = await h.call<{ fetched: number; updated: number; unmatched: Array<{ cloudProductId: string }> }>('POST', '/sc/ymy-ipc/back/sync-product-info', { token: admin, body: { cloudVendor: 1 } });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toEqual({ fetched: 2, updated: 1, unmatched: [{ cloudProductId: 'TCNEW002', name: '未登记的产品' }] });
    expect(seen).toContainEqual({ vendor: 'tencent', action: 'GetStudioProductList', authorised: true });
    const product = await h.call<{ records: Row[] }>('GET', '/api/ymy-product/product/list', { token: admin, query: { productCode: 'SYNC-T' } });
    expect(product.body.data.records[0]!.description).toBe('云端描述 K1');
  });

  it('pulls Alibaba IoT Platform products through its SDK', async () => {
    const res = await h.call<{ fetched: number; updated: number }>('POST', '/tc/ymy-ipc/back/sync-product-info', { token: admin, query: { cloudVendor: 2 } });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toEqual({ fetched: 1, updated: 1, unmatched: [] });
    expect(seen).toContainEqual({ vendor: 'alibaba', action: 'QueryProductList', authorised: true });
  });

  it('names the missing setting when the server has no keys, and refuses bad input and other tenants', async () => {
    const token = (await bare.login('000000', 'admin', 'admin')).access_token;
    const res = await bare.call('POST', '/sc/ymy-ipc/back/sync-product-info', { token, body: { cloudVendor: 1 }, lang: 'en' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Tencent Cloud IoT Explorer is not configured: set TENCENT_IOT_SECRET_ID on the server');
    expect((await bare.call('POST', '/sc/ymy-ipc/back/sync-product-info', { token, body: { cloudVendor: 2 }, lang: 'en' })).body.msg).toContain('ALIBABA_IOT_ACCESS_KEY_ID');
    expect((await bare.call('POST', '/sc/ymy-ipc/back/sync-product-info', { token, body: { cloudVendor: 3 } })).status).toBe(400);
    const demo = (await h.login('541742', 'admin', 'admin')).access_token;
    expect((await h.call('POST', '/sc/ymy-ipc/back/sync-product-info', { token: demo, body: { cloudVendor: 1 } })).status).toBe(403);
  });

  it('is offered (the product_cloud_sync button) only by a server holding a cloud\'s keys; 上传云端 only with a firmware cloud', async () => {
    type Node = { code: string; children?: Node[] };
    const codes = (nodes: Node[]): string[] => nodes.flatMap((n) => [n.code, ...codes(n.children ?? [])]);
    const buttonsOf = async (server: typeof h) => {
      const token = (await server.login('000000', 'admin', 'admin')).access_token;
      return codes((await server.call<Node[]>('GET', '/api/blade-system/menu/buttons', { token })).body.data);
    };
    const configured = await buttonsOf(h);
    expect(configured).toContain('product_cloud_sync');
    expect(configured).toContain('product_info_edit');
    // firmware stays on this server (FIRMWARE_CLOUD=own): nothing to upload
    expect(configured).not.toContain('firmware_cloud');
    const unconfigured = await buttonsOf(bare);
    expect(unconfigured).not.toContain('product_cloud_sync');
    expect(unconfigured).toContain('product_info_edit');
  });
});

import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
// the fleet simulator's core (npm run simulate): real MQTT connections to the server's device gateway
import { createFleet, type Fleet, type FleetOptions, type FleetSession } from '../server/src/areas/device/gateway/fleet.js';
import { api } from './api.js';

const IPC = '/sc/ymy-ipc/back';
const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

/** A platform administrator's calls to the server under test; a refusal throws with the server's message. */
export function platformCalls(baseUrl: string, token: string) {
  const call = async <T>(path: string, json?: unknown): Promise<T> => {
    const res = await api<T>(baseUrl, token, path, json === undefined ? {} : { method: 'POST', json });
    if (!res.success) throw new Error(`${path}: ${res.msg}`);
    return res.data;
  };
  const multipart = async <T>(path: string, form: FormData): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}`, { method: 'POST', body: form, headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` } });
    const body = (await res.json()) as { success: boolean; msg: string; data: T };
    if (!body.success) throw new Error(`${path}: ${body.msg}`);
    return body.data;
  };
  return { call, multipart };
}

export type PlatformCalls = ReturnType<typeof platformCalls>;

/**
 * The agent of the tenant holding `region` (a region belongs to one agent): the one there is (whichever browser test
 * made it first), or a new one named `name`.
 */
export async function agentHolding(p: PlatformCalls, region: string, name: string): Promise<{ id: string; name: string }> {
  const held = (await p.call<Array<{ regionCode: string; agentId: string; agentName: string }>>('/api/omc-device/area-agent/used-region'))
    .find((r) => r.regionCode === region);
  if (held) return { id: held.agentId, name: held.agentName };
  return { id: (await p.call<{ id: string }>('/api/omc-device/area-agent/submit', { agentName: name, regionCodes: region })).id, name };
}

/** A product type, model and product on the cloud product `cloudProductId`, and a factory: what batches are made of. */
export async function simulatedProduct(p: PlatformCalls, tag: string, cloudProductId: string): Promise<{ typeId: string; productId: string; factoryId: string }> {
  const type = await p.call<{ id: string }>('/api/ymy-product/type/submit', { typeName: `E2E ${tag} 门锁`, typeCode: `E2E-${tag}-LOCK` });
  const model = await p.call<{ id: string }>('/api/ymy-product/model/submit', { typeId: type.id, modelName: `E2E ${tag}1`, modelCode: `E2E-${tag}1` });
  const product = await p.call<{ id: string }>('/api/ymy-product/product/submit', {
    productName: `E2E ${tag} 锁`, productCode: `E2E-${tag}-P1`, typeId: type.id, modelId: model.id, cloudVendor: 1, cloudProductId,
  });
  const factory = await p.call<{ id: string }>(`${IPC}/add-factory`, { factoryName: `E2E ${tag} 工厂`, factoryCode: `E2E-${tag}-F1` });
  return { typeId: type.id, productId: product.id, factoryId: factory.id };
}

/**
 * A batch of `count` locks of the product, their IoT credentials imported as the cloud hands them out and allocated;
 * answers the batch and the locks' simulator sessions (not connected yet: `connect`).
 */
export async function simulatedBatch(p: PlatformCalls, o: { batchNo: string; snPrefix: string; count: number; productId: string; factoryId: string; cloudProductId: string }) {
  const batch = await p.call<{ id: string }>(`${IPC}/add-batch`, { batchNo: o.batchNo, factoryId: o.factoryId, productId: o.productId, cloudVendor: 1, quantity: o.count, snPrefix: o.snPrefix });
  const devices = await p.call<{ records: Array<{ sn: string }> }>(`${IPC}/get-device-list?batchId=${batch.id}&size=${o.count}`);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('certs');
  sheet.addRow(['cloudVendor', 'cloudProductId', 'deviceName', 'deviceSecret']);
  for (const d of devices.records) sheet.addRow(['1', o.cloudProductId, d.sn, randomBytes(16).toString('base64')]);
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(await book.xlsx.writeBuffer())]), 'certs.xlsx');
  const job = await p.multipart<{ id: string }>(`${IPC}/import-cert-list`, form);
  let status = 'running';
  for (let i = 0; i < 100 && status === 'running'; i++) {
    await new Promise((r) => setTimeout(r, 200));
    status = (await p.call<{ status: string }>(`${IPC}/get-upload-progress?id=${job.id}`)).status;
  }
  if (status !== 'done') throw new Error(`the certificates' import ended ${status}`);
  await p.call(`${IPC}/allocate-cert`, { batchId: batch.id });
  const { sessions } = await p.call<{ sessions: FleetSession[] }>('/api/omc-device/simulator/sessions', { batchNo: o.batchNo });
  return { batchId: batch.id, sessions };
}

/** Connects the simulated locks; resolves once every one is connected. */
export async function connect(sessions: readonly FleetSession[], options: Omit<FleetOptions, 'sessions'> = {}): Promise<Fleet> {
  const fleet = createFleet({ sessions, connectSpreadMs: 0, random: () => 0.5, ...options });
  await fleet.start();
  if (fleet.counters.connected !== sessions.length) throw new Error(`${fleet.counters.connected} of ${sessions.length} simulated locks connected`);
  return fleet;
}

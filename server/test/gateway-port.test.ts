import { randomBytes } from 'node:crypto';
import { connect as tcpConnect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tencentCredentials } from '../src/areas/device/gateway/credentials.js';
import { GATEWAY } from '../src/areas/device/index.js';
import { createGateway, type DeviceGateway } from '../src/areas/device/gateway/gateway.js';
import { MAX_PACKET_BYTES } from '../src/areas/device/gateway/portGuard.js';
import type { Uplink } from '../src/areas/device/gateway/types.js';
import { connect, type FixtureDevice, makeDevices, until } from './gateway-fixture.js';
import { useServer } from './harness.js';

/**
 * The embedded broker's port under attack: clients that have not signed in announce huge packets, hold
 * connections open without a CONNECT, or open many connections from one address. The server (hosted by this
 * test process) stays within bounds and a real device still connects and reports.
 */
const ROOT = `prt${randomBytes(3).toString('hex')}`;
const h = useServer({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', MQTT_TOPIC_ROOT: ROOT });
const PID = 'PRTPROD001';
let gw: DeviceGateway;
let port: number;
let locks: FixtureDevice[];
const uplinks: Uplink[] = [];
const open: Array<MqttClient | Socket> = [];

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
/** resident memory after two full collections: what the process really holds */
function settledRss(): number {
  gc();
  gc();
  return process.memoryUsage().rss;
}

/** the fixed header of an MQTT packet of this type announcing `length` bytes to follow */
function header(type: number, length: number): Buffer {
  const bytes = [type << 4];
  let n = length;
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 128;
    bytes.push(b);
  } while (n > 0);
  return Buffer.from(bytes);
}

/** a raw TCP connection from another loopback address than the devices' (so per-address limits set them apart) */
function attacker(from = '127.0.0.2', to = port): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = tcpConnect({ host: '127.0.0.1', port: to, localAddress: from }, () => resolve(s));
    s.on('error', () => undefined);
    s.once('error', reject);
    open.push(s);
  });
}

const closed = (s: Socket) => s.destroyed || s.closed;
const tencent = (d: FixtureDevice) => tencentCredentials(d.cloudProductId, d.deviceName, d.key);
const up = (kind: string, d: FixtureDevice) => `${ROOT}/up/${kind}/${d.cloudProductId}/${d.deviceName}`;

/** a device signs in and reports; resolves once the report reached the uplink handler */
async function deviceReports(d: FixtureDevice, token: string, to = port): Promise<void> {
  const c = await connect(`mqtt://127.0.0.1:${to}`, tencent(d));
  open.push(c);
  await c.publishAsync(up('property', d), JSON.stringify({ method: 'report', clientToken: token, params: { battery: 77 } }), { qos: 1 });
  await until(() => uplinks.some((u) => u.device.sn === d.sn && u.clientToken === token), 10_000, 'the device\'s report');
  await c.endAsync(true);
}

beforeAll(async () => {
  gw = h.server.ctx.services.get(GATEWAY);
  expect(gw.mode).toBe('embedded');
  port = gw.port!;
  locks = await makeDevices(h.server.ctx, { batchNo: 'PRT-B1', snPrefix: 'PRT', count: 3, cloudProductId: PID });
  gw.onUplink(['property', 'event', 'ota', 'action', 'location'], async (batch) => void uplinks.push(...batch));
});

afterAll(() => {
  for (const c of open) {
    if ('endAsync' in c) void c.endAsync(true).catch(() => undefined);
    else c.destroy();
  }
});

describe('the device port is bounded', () => {
  it('50 clients announcing a 200 MB CONNECT and sending 4 MB of it grow the server by less than 50 MB; a device still connects and reports', async () => {
    // warm the broker's code paths and the test's own, so the baseline holds them
    await deviceReports(locks[0]!, 'warm');
    const before = settledRss();
    const body = Buffer.alloc(4 * MB, 0x41);
    const sockets = await Promise.all(Array.from({ length: 50 }, () => attacker()));
    // each either has handed its 4 MB to the kernel or was closed by the server
    await Promise.all(sockets.map((s) => new Promise<void>((resolve) => {
      s.once('close', () => resolve());
      s.write(header(1, 200 * MB));
      s.write(body, () => resolve());
    })));
    // what the server reads of it lands in memory within moments: the highest of a few readings counts
    let peak = settledRss();
    for (let i = 0; i < 10 && !sockets.every(closed); i++) {
      await new Promise((r) => setTimeout(r, 200));
      peak = Math.max(peak, settledRss());
    }
    const grown = (peak - before) / MB;
    console.log(`rss grew by ${grown.toFixed(1)} MB over 50 connections announcing 200 MB (${sockets.filter(closed).length} closed by the server)`);
    expect(grown).toBeLessThan(50);
    await deviceReports(locks[1]!, 'after-flood');
  });
});

describe('packet sizes, connection limits and the CONNECT deadline', () => {
  it('closes a signed-in device that announces a packet over the bound, before its body is sent', async () => {
    const d = locks[2]!;
    const c = await connect(`mqtt://127.0.0.1:${port}`, tencent(d));
    open.push(c);
    // only the fixed header of a PUBLISH announcing one byte over the bound: the server cannot wait for the rest
    c.stream.write(header(3, MAX_PACKET_BYTES + 1));
    await until(() => c.stream.destroyed, 10_000, 'the connection closed by the server');
    expect(gw.stats().refusedConnections?.packet_too_large).toBeGreaterThanOrEqual(1);
    // a first packet that is not a CONNECT is refused as well
    const s = await attacker();
    s.write(header(3, 10));
    await until(() => closed(s), 5_000, 'the non-CONNECT client closed');
    expect(gw.stats().refusedConnections?.not_connect).toBeGreaterThanOrEqual(1);
  });

  it('limits open connections per address and in total, closes clients that send no CONNECT in time, and still lets a device in', async () => {
    const limited = createGateway(h.server.ctx, {
      mqtt: { port: 0, host: '127.0.0.1', topicRoot: `${ROOT}l`, maxConnectionsPerAddress: 3, maxConnections: 5, connectTimeoutMs: 1_500 },
    });
    const got: Uplink[] = [];
    limited.onUplink(['property'], async (batch) => void got.push(...batch));
    await limited.start();
    try {
      const lp = limited.port!;
      const fromTwo: Socket[] = [];
      for (let i = 0; i < 4; i++) fromTwo.push(await attacker('127.0.0.2', lp));
      await until(() => closed(fromTwo[3]!), 5_000, 'the fourth connection from one address closed');
      expect(fromTwo.slice(0, 3).some(closed)).toBe(false);
      const fromThree = [await attacker('127.0.0.3', lp), await attacker('127.0.0.3', lp)];
      const sixth = await attacker('127.0.0.4', lp);
      await until(() => closed(sixth), 5_000, 'the sixth connection in total closed');
      expect([...fromTwo.slice(0, 3), ...fromThree].some(closed)).toBe(false);
      expect(limited.stats().refusedConnections?.connection_limit).toBe(2);
      // none of the five sends a CONNECT: each is closed at the deadline, and their places are free again
      await until(() => [...fromTwo, ...fromThree].every(closed), 10_000, 'silent connections closed at the CONNECT deadline');
      await deviceReportsTo(limited, got, locks[0]!, 'after-deadline');
    } finally {
      await limited.close();
    }
  });
});

/** a device signs in to another gateway and reports; resolves once its handler got the report */
async function deviceReportsTo(g: DeviceGateway, got: Uplink[], d: FixtureDevice, token: string): Promise<void> {
  const c = await connect(`mqtt://127.0.0.1:${g.port!}`, tencent(d));
  open.push(c);
  await c.publishAsync(`${g.topicRoot}/up/property/${d.cloudProductId}/${d.deviceName}`, JSON.stringify({ method: 'report', clientToken: token, params: { battery: 70 } }), { qos: 1 });
  await until(() => got.some((u) => u.device.sn === d.sn && u.clientToken === token), 10_000, 'the device\'s report');
  await c.endAsync(true);
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/core/config.js';
import { memoryKv } from '../src/core/kv.js';
import { createGateway } from '../src/areas/device/gateway/gateway.js';
import { createHmac, randomBytes } from 'node:crypto';
import {
  aliyunCredentials, aliyunVerify, canonicalJson, HmacSha256Key, parseTencentUsername, sameHex, sessionKey, signDownlink, signMessage, signUplink,
  tencentCredentials, tencentVerify, verifyDownlink, verifyMessage, verifySigned,
} from '../src/areas/device/gateway/credentials.js';
import { checkSigned, decodeEnvelope, type Decoded } from '../src/areas/device/gateway/envelope.js';
import { EmbeddedBroker } from '../src/areas/device/gateway/broker.js';
import { type DeviceKey, DeviceKeys } from '../src/areas/device/gateway/deviceKeys.js';
import { Ingest } from '../src/areas/device/gateway/ingest.js';
import { silentLogger } from '../src/areas/device/gateway/log.js';
import { downTopic, isOwnDownFilter, parseTopic, upTopic } from '../src/areas/device/gateway/topics.js';
import type { Uplink } from '../src/areas/device/gateway/types.js';
import { connect, until } from './gateway-fixture.js';

/** Device gateway pieces without a server: topics, credentials (fixed vectors, checked with openssl), envelope, ingest. */
const PSK = Buffer.from('c2VjcmV0LXBzay0x', 'base64');
const NOW = 1767225600000;
const USER = 'TCPROD0001lock1;12010126;abcde;1767226200';

describe('topics', () => {
  it('formats and parses only this root, known kinds and plain names', () => {
    expect(upTopic('dev', 'property', 'P1', 'd1')).toBe('dev/up/property/P1/d1');
    expect(downTopic('dev', 'ota', 'P1', 'd1')).toBe('dev/down/ota/P1/d1');
    expect(parseTopic('dev', 'dev/up/event/P1/d1')).toEqual({ direction: 'up', kind: 'event', cloudProductId: 'P1', deviceName: 'd1' });
    expect(parseTopic('dev', 'dev/up/status/P1/d1')).toMatchObject({ kind: 'status' });
    for (const bad of ['other/up/event/P1/d1', 'dev/up/nope/P1/d1', 'dev/down/location/P1/d1', 'dev/up/event/P1', 'dev/up/event/P1/d1/x', 'dev/up/event/+/d1', 'dev/up/event/P1/#', '$SYS/x', '']) {
      expect(parseTopic('dev', bad), bad).toBeNull();
    }
    expect(isOwnDownFilter('dev', 'dev/down/+/P1/d1', 'P1', 'd1')).toBe(true);
    expect(isOwnDownFilter('dev', 'dev/down/ota/P1/d1', 'P1', 'd1')).toBe(true);
    expect(isOwnDownFilter('dev', 'dev/down/+/P1/d2', 'P1', 'd1')).toBe(false);
    expect(isOwnDownFilter('dev', 'dev/down/#', 'P1', 'd1')).toBe(false);
    expect(isOwnDownFilter('dev', 'dev/up/+/P1/d1', 'P1', 'd1')).toBe(false);
  });
});

describe('credentials', () => {
  it('Tencent PSK: the fixed vector, sha256 and sha1, any sdkappid, expiry, clientId', () => {
    const c = tencentCredentials('TCPROD0001', 'lock1', PSK, { now: NOW, connId: 'abcde' });
    expect(c).toEqual({ clientId: 'TCPROD0001lock1', username: USER, password: '5adc3cfeeb8d9d1a816de83c642b2d7ef541eceb2b0c767f1728867eccbd957a;hmacsha256' });
    expect(tencentVerify(c.clientId, c.username, c.password, PSK, NOW)).toBe(true);
    const sha1 = tencentCredentials('TCPROD0001', 'lock1', PSK, { now: NOW, connId: 'abcde', alg: 'sha1', sdkAppId: '21010406' });
    expect(sha1.password).toBe('a7272afadd9d5e8ac74f93657d1b7821f51b7efc;hmacsha1');
    expect(tencentVerify(sha1.clientId, sha1.username, sha1.password, PSK, NOW)).toBe(true);
    expect(tencentVerify(c.clientId, c.username, c.password.toUpperCase().replace('HMACSHA256', 'hmacsha256'), PSK, NOW)).toBe(true);
    expect(tencentVerify(c.clientId, c.username, c.password, PSK, NOW + 601_000)).toBe(false);
    expect(tencentVerify('TCPROD0001lock2', c.username, c.password, PSK, NOW)).toBe(false);
    expect(tencentVerify(c.clientId, c.username, c.password, Buffer.from('other'), NOW)).toBe(false);
    expect(tencentVerify(c.clientId, c.username, 'zz;hmacsha256', PSK, NOW)).toBe(false);
    const never = `TCPROD0001lock1;21010406;abcde;9223372036854775807`;
    expect(parseTencentUsername(never)?.expiry).toBe(Infinity);
  });

  it('Alibaba: the documented example, the three sign methods, case-insensitive hex', () => {
    const doc = aliyunCredentials('pk', 'device', 'secret', { clientId: '12345', timestamp: '789', signmethod: 'hmacsha1', securemode: 3 });
    expect(doc).toEqual({ clientId: '12345|securemode=3,signmethod=hmacsha1,timestamp=789|', username: 'device&pk', password: 'fafd82a3d602b37fb0fa8b7892f24a477f851a14' });
    expect(aliyunVerify(doc.clientId, doc.username, doc.password.toUpperCase(), Buffer.from('secret'))).toBe(true);
    for (const signmethod of ['hmacmd5', 'hmacsha1', 'hmacsha256'] as const) {
      const c = aliyunCredentials('a1Key', 'lock9', 'ds-9', { signmethod });
      expect(aliyunVerify(c.clientId, c.username, c.password, Buffer.from('ds-9'))).toBe(true);
      expect(aliyunVerify(c.clientId, c.username, c.password, Buffer.from('ds-8'))).toBe(false);
    }
    expect(aliyunVerify('x|signmethod=hmacsha999|', 'd&p', 'ab', Buffer.from('s'))).toBe(false);
    expect(aliyunVerify('x', 'd&p', 'ab', Buffer.from('s'))).toBe(false);
  });

  it('canonical JSON: keys in code-unit order at every level, escaped keys and values as JSON writes them, undefined left out', () => {
    expect(canonicalJson({ 'b"q': 1, a: [undefined, { 'é': 2, z: { y: true, x: '\u2028' } }], c: undefined, 'k\\': 'v\n', B: -0.5, '': null }))
      .toBe('{"":null,"B":-0.5,"a":[null,{"z":{"x":"\u2028","y":true},"é":2}],"b\\"q":1,"k\\\\":"v\\n"}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson({ a: undefined })).toBe('{}');
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('the session key and the signature of a message: fixed vectors', () => {
    expect(sessionKey(PSK, USER).toString('hex')).toBe('cfa31c0342b1a84e2754aea11aebc48c499e315f70455b30902fdd33f4faf8d0');
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 2, y: 'x' }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"y":"x","z":2}]},"b":1}');
    expect(signMessage(sessionKey(PSK, USER), 'dev/up/property/TCPROD0001/lock1', NOW, 'tok1', { lock_state: 1, battery: 87 }))
      .toBe('8885c563b99c197047d27e8bd43d7a81162bf80650579be2bfd85179e12382c0');
    const down = signDownlink(PSK, 'dev/down/action/TCPROD0001/lock1', { method: 'action', actionId: 'disable', params: {}, clientToken: 'srv1', timestamp: NOW });
    expect(down.sign).toBe('903d88599b4c58733c0b5d1b428db698790975b54152f8d675e3ece4dc5d0614');
    expect(verifyDownlink(PSK, 'dev/down/action/TCPROD0001/lock1', down)).toBe(true);
    expect(verifyDownlink(PSK, 'dev/down/action/TCPROD0001/lock1', { ...down, actionId: 'unbind' })).toBe(false);
    expect(verifyDownlink(PSK, 'dev/down/action/TCPROD0001/lock2', down)).toBe(false);
  });

  it('checks a signed envelope: conn of this device, not expired, clock, sign', () => {
    const topic = 'dev/up/property/TCPROD0001/lock1';
    const session = sessionKey(PSK, USER);
    const env = signUplink(session, USER, topic, { method: 'report', clientToken: 'tok1', timestamp: NOW, params: { lock_state: 1, battery: 87 } });
    const d = decodeEnvelope(JSON.stringify(env), 'property') as Decoded;
    expect(checkSigned(d, topic, PSK, 'TCPROD0001', 'lock1', NOW)).toBeNull();
    expect(checkSigned(d, topic, PSK, 'TCPROD0001', 'lock1', NOW + 301_000)).toBe('clock');
    expect(checkSigned(d, topic, PSK, 'TCPROD0001', 'lock1', NOW + 700_000)).toBe('conn_expired');
    expect(checkSigned(d, topic, PSK, 'TCPROD0001', 'lock2', NOW)).toBe('conn_mismatch');
    expect(checkSigned(d, 'dev/up/event/TCPROD0001/lock1', PSK, 'TCPROD0001', 'lock1', NOW)).toBe('bad_sign');
    const tampered = decodeEnvelope(JSON.stringify({ ...env, params: { lock_state: 0, battery: 87 } }), 'property') as Decoded;
    expect(checkSigned(tampered, topic, PSK, 'TCPROD0001', 'lock1', NOW)).toBe('bad_sign');
    const unsigned = decodeEnvelope(JSON.stringify({ method: 'report', params: {} }), 'property') as Decoded;
    expect(checkSigned(unsigned, topic, PSK, 'TCPROD0001', 'lock1', NOW)).toBe('unsigned');
    // OTA: `type` and `report`
    const ota = decodeEnvelope(JSON.stringify({ type: 'report_version', clientToken: 'a', timestamp: NOW, report: { version: '1.0' } }), 'ota') as Decoded;
    expect(ota).toMatchObject({ name: 'report_version', body: { version: '1.0' } });
  });

  it('HMACs with a prepared key as createHmac does: keys of any length, utf-8, messages longer than the scratch buffer', () => {
    for (const keyLength of [0, 1, 16, 32, 63, 64, 65, 200]) {
      const key = randomBytes(keyLength);
      const prepared = new HmacSha256Key(key);
      for (const message of ['', 'a', 'topic/设备/☃\n1700000000000\ntoken\n' + 'f'.repeat(64), 'x'.repeat(5000) + '€'.repeat(2000)]) {
        expect(prepared.hex(message)).toBe(createHmac('sha256', key).update(message).digest('hex'));
      }
    }
  });

  it('checks signs as before: either case of hex, nothing else, not another body or key', () => {
    const key = randomBytes(32);
    const sign = signMessage(key, 'r/up/event/P/d', NOW, 'c1', { b: 1, a: [1, 'x'] });
    const prepared = new HmacSha256Key(key);
    expect(verifyMessage(key, 'r/up/event/P/d', NOW, 'c1', { a: [1, 'x'], b: 1 }, sign)).toBe(true);
    expect(verifySigned(prepared, 'r/up/event/P/d', NOW, 'c1', { a: [1, 'x'], b: 1 }, sign.toUpperCase())).toBe(true);
    expect(verifySigned(prepared, 'r/up/event/P/d', NOW, 'c1', { a: [1, 'x'], b: 2 }, sign)).toBe(false);
    expect(verifySigned(prepared, 'r/up/event/P/d', NOW + 1, 'c1', { a: [1, 'x'], b: 1 }, sign)).toBe(false);
    expect(verifySigned(new HmacSha256Key(randomBytes(32)), 'r/up/event/P/d', NOW, 'c1', { a: [1, 'x'], b: 1 }, sign)).toBe(false);
    expect(verifySigned(prepared, 'r/up/event/P/d', NOW, 'c1', { a: [1, 'x'], b: 1 }, `${sign.slice(0, 63)}g`)).toBe(false);
    expect(verifySigned(prepared, 'r/up/event/P/d', NOW, 'c1', { a: [1, 'x'], b: 1 }, sign.slice(0, 62))).toBe(false);
    expect(verifySigned(prepared, 'r/up/event/P/d', NOW, 'c1', { a: [1, 'x'], b: 1 }, 5 as unknown as string)).toBe(false);
    // a character whose low bits match a digit's is no digit
    expect(sameHex('0a', '0a')).toBe(true);
    expect(sameHex('0A', '0a')).toBe(true);
    expect(sameHex('\u00100a'.slice(1), '0a')).toBe(true);
    expect(sameHex('\u0010a', '0a')).toBe(false);
    expect(sameHex('pa', '0a')).toBe(false);
    expect(sameHex('0a0', '0a')).toBe(false);
  });

  it('never throws on malformed payloads', () => {
    expect(decodeEnvelope('not json', 'event')).toBe('not_json');
    expect(decodeEnvelope('[1]', 'event')).toBe('bad_envelope');
    expect(decodeEnvelope('{"method":5}', 'event')).toBe('bad_envelope');
    expect(decodeEnvelope('{"method":"x","params":[1]}', 'event')).toBe('bad_envelope');
    expect(decodeEnvelope('{"method":"x","timestamp":"1"}', 'event')).toBe('bad_envelope');
    expect(decodeEnvelope(Buffer.alloc(70_000, 32), 'event')).toBe('too_large');
    expect(decodeEnvelope(Buffer.from([0xff, 0xfe, 0x00]), 'event')).toBe('not_json');
  });
});

describe('ingest', () => {
  const device = { sn: 'SN1', productId: '1', cloudVendor: 1, cloudProductId: 'P', deviceName: 'd' };
  const up = (kind: Uplink['kind'], clientToken: string): Uplink => ({ device, kind, method: 'm', clientToken, timestamp: 1, params: {}, receivedAt: 1 });

  it('hands batches to the handlers of their kinds, drops duplicates, survives a failing handler (each batch tried three times)', async () => {
    const ingest = new Ingest(silentLogger, { batchSize: 3, intervalMs: 5 });
    const seen: string[][] = [];
    ingest.onUplink(['event', 'ota'], async (b) => void seen.push(b.map((u) => u.clientToken)));
    ingest.onUplink(['event'], async () => {
      throw new Error('boom');
    });
    for (const t of ['a', 'b', 'c', 'd']) ingest.pushUplink(up('event', t));
    expect(ingest.pushUplink(up('event', 'a'))).toBe(false);
    ingest.pushUplink(up('ota', 'a'));
    ingest.pushUplink(up('property', ''));
    ingest.pushUplink(up('property', ''));
    await ingest.close();
    expect(seen.flat().sort()).toEqual(['a', 'a', 'b', 'c', 'd']);
    expect(ingest.counters).toMatchObject({ accepted: 7, flushed: 7, rejected: { duplicate: 1 }, handlerErrors: 6, dropped: 4 });
  });

  it('remembers the last `recentTokens` tokens: an older one is taken again', async () => {
    const ingest = new Ingest(silentLogger, { batchSize: 100, intervalMs: 5, recentTokens: 2 });
    const taken = ['a', 'b', 'c', 'a', 'c', 'b', 'b'].map((t) => ingest.pushUplink(up('event', t)));
    // a and b remembered; c forgets a; a (again) forgets b; c is still remembered; b (again) forgets c
    expect(taken).toEqual([true, true, true, true, false, true, false]);
    await ingest.close();
  });

  it('takes what waited at once, at most ten batches, in arrival order', async () => {
    const ingest = new Ingest(silentLogger, { batchSize: 3, intervalMs: 5 });
    const sizes: number[] = [];
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    ingest.onUplink(['event'], async (b) => {
      sizes.push(b.length);
      order.push(...b.map((u) => u.clientToken!));
      if (sizes.length === 1) await gate; // the handler is slow while the devices go on sending
    });
    for (let i = 0; i < 40; i++) ingest.pushUplink(up('event', `t${i}`));
    open();
    await ingest.close();
    // the first batch left before the backlog; then 37 waiting: 30 (ten batches), then the last 7 together
    expect(sizes).toEqual([3, 30, 7]);
    expect(order).toEqual(Array.from({ length: 40 }, (_, i) => `t${i}`));
  });

  it('hands a failed batch to its handler again; nothing is dropped when a later try succeeds', async () => {
    const ingest = new Ingest(silentLogger, { batchSize: 10, intervalMs: 5 });
    let calls = 0;
    const stored: string[] = [];
    ingest.onUplink(['ota'], async (b) => {
      if (++calls === 1) throw new Error('statement timeout');
      stored.push(...b.map((u) => u.clientToken));
    });
    for (const t of ['x', 'y']) ingest.pushUplink(up('ota', t));
    await ingest.close();
    expect(stored).toEqual(['x', 'y']);
    expect(ingest.counters).toMatchObject({ handlerErrors: 1, dropped: 0, flushed: 2 });
  });

  it('hands the repeats of the kinds named to the handler that answers them, and never the repeats of its other kinds', async () => {
    const ingest = new Ingest(silentLogger, { batchSize: 100, intervalMs: 5 });
    const answering: string[] = [];
    const plain: string[] = [];
    ingest.onUplink(['ota', 'event'], async (b) => void answering.push(...b.map((u) => `${u.kind}:${u.clientToken}${u.repeat ? '+' : ''}`)), { repeats: ['event'] });
    ingest.onUplink(['ota', 'event'], async (b) => void plain.push(...b.map((u) => `${u.kind}:${u.clientToken}${u.repeat ? '+' : ''}`)));
    for (const [kind, token] of [['ota', 'o1'], ['event', 'e1'], ['ota', 'o1'], ['event', 'e1']] as const) ingest.pushUplink(up(kind, token));
    await ingest.close();
    expect(answering).toEqual(['ota:o1', 'event:e1', 'event:e1+']);
    expect(plain).toEqual(['ota:o1', 'event:e1']);
    expect(ingest.counters).toMatchObject({ accepted: 2, flushed: 2, rejected: { duplicate: 2 } });
  });

  it('reports full and releases waiters once flushed', async () => {
    const ingest = new Ingest(silentLogger, { capacity: 2, batchSize: 100, intervalMs: 5 });
    ingest.onUplink(['event'], async () => {});
    ingest.pushUplink(up('event', 'x'));
    ingest.pushUplink(up('event', 'y'));
    expect(ingest.full).toBe(true);
    await ingest.drained();
    expect(ingest.full).toBe(false);
    await ingest.close();
  });
});

describe('device keys', () => {
  // the cache is filled through its private `put` (what a read of the certificates does)
  type Cache = { put(p: string, d: string, v: DeviceKey | null): void; cache: Map<string, unknown> };
  const key = (n: number): DeviceKey => ({ device: { sn: `K${n}`, productId: '1', cloudVendor: 1, cloudProductId: 'P', deviceName: `d${n}` }, key: Buffer.alloc(16, n) });
  const keysOf = (maxEntries: number) => {
    const keys = new DeviceKeys({ db: {} as never, kv: memoryKv(), config: { encryptionKey: Buffer.alloc(32, 7) } }, { maxEntries });
    return { keys, cache: keys as unknown as Cache };
  };

  it('keeps what is used within three quarters of its turnover and evicts the least recently used, not moving an entry on every hit', () => {
    const { keys, cache } = keysOf(8);
    cache.put('P', 'd0', key(0));
    for (let n = 1; n <= 40; n++) {
      cache.put('P', `d${n}`, key(n));
      // d0 is used all the time: it stays, however many come after it
      expect(keys.peek('P', 'd0')?.device.sn).toBe('K0');
    }
    expect(cache.cache.size).toBe(8);
    expect(keys.peek('P', 'd40')?.device.sn).toBe('K40');
    // the least recently used went first
    expect(keys.peek('P', 'd1')).toBeUndefined();
    expect(keys.peek('P', 'd32')).toBeUndefined();
    // a hit soon after an entry was placed leaves the order as it is (no delete and set per message)
    const order = [...cache.cache.keys()];
    keys.peek('P', 'd39');
    expect([...cache.cache.keys()]).toEqual(order);
  });
});

describe('embedded broker backpressure', () => {
  // aedes acknowledges a QoS 1 message before its hooks run, but reads a connection's next packets only once the
  // hooks of the last read are done: a stalled store stops the reading, and what was read is kept, however much
  it('stops reading from the devices while the store is stalled and loses nothing past twice the capacity', async () => {
    const ingest = new Ingest(silentLogger, { capacity: 20, batchSize: 50, intervalMs: 5 });
    let open!: () => void;
    const stalled = new Promise<void>((r) => { open = r; });
    const stored: string[] = [];
    ingest.onUplink(['property'], async (b) => {
      await stalled;
      stored.push(...b.map((u) => u.clientToken ?? ''));
    });
    const keyOf = (n: number): Buffer => Buffer.alloc(16, n);
    const devices = Array.from({ length: 4 }, (_, n) => ({ sn: `BP${n}`, productId: '1', cloudVendor: 1, cloudProductId: 'BPPROD0001', deviceName: `bp${n}` }));
    const keys = {
      lookupClientId: async (clientId: string) => {
        const n = devices.findIndex((d) => d.cloudProductId + d.deviceName === clientId);
        return n < 0 ? null : { device: devices[n]!, key: keyOf(n) };
      },
    } as unknown as DeviceKeys;
    const broker = new EmbeddedBroker({ port: 0, host: '127.0.0.1', root: 'bp', instanceId: 'bp', keys, ingest, log: silentLogger, maxConnections: 100, maxConnectionsPerAddress: 100, connectTimeoutMs: 10_000 });
    await broker.start();
    const clients = await Promise.all(devices.map((d, n) => connect(`mqtt://127.0.0.1:${broker.port}`, tencentCredentials(d.cloudProductId, d.deviceName, keyOf(n)))));
    try {
      let acked = 0;
      const PER_DEVICE = 1500;
      const sends = clients.flatMap((c, n) => Array.from({ length: PER_DEVICE }, (_, i) =>
        c.publishAsync(upTopic('bp', 'property', 'BPPROD0001', devices[n]!.deviceName), JSON.stringify({ method: 'report', clientToken: `${n}-${i}`, params: { i } }), { qos: 1 })
          .then(() => void acked++)));
      const total = devices.length * PER_DEVICE;
      await until(() => ingest.counters.received >= 2 * ingest.capacity, 5_000, 'a backlog past twice the capacity');
      await new Promise((r) => setTimeout(r, 200));
      expect(ingest.counters.received).toBeLessThan(total);
      expect(acked).toBeLessThan(total);
      expect(ingest.counters.dropped).toBe(0);
      open();
      await Promise.all(sends);
      // a PUBACK is written before the hook hands the message over
      await until(() => ingest.counters.received === total, 5_000, 'every message handed over');
      await ingest.close();
      expect(acked).toBe(total);
      expect(stored).toHaveLength(total);
      expect(new Set(stored).size).toBe(total);
      expect(ingest.counters).toMatchObject({ accepted: total, flushed: total, dropped: 0 });
    } finally {
      await Promise.all(clients.map((c) => c.endAsync(true)));
      await broker.close();
    }
  });
});

describe('gateway config and start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-config-'));
  const load = (env: Record<string, string>) => loadConfig({ JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'a'.repeat(64), ...env }, { dataDir });

  it('reads MQTT_*: off in tests unless asked, 1883 elsewhere, clear errors', () => {
    expect(load({ NODE_ENV: 'test' }).mqtt).toMatchObject({ port: 'off', topicRoot: 'dev', host: '0.0.0.0' });
    expect(load({ NODE_ENV: 'test', MQTT_PORT: '0' }).mqtt.port).toBe(0);
    expect(load({ NODE_ENV: 'test', MQTT_URL: 'mqtt://127.0.0.1:1883' }).mqtt).toMatchObject({ url: 'mqtt://127.0.0.1:1883' });
    expect(load({ NODE_ENV: 'production' }).mqtt.port).toBe(1883);
    expect(load({ NODE_ENV: 'production', MQTT_PORT: 'off' }).mqtt.port).toBe('off');
    expect(load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/console' }).deviceSimulator).toBe(false);
    expect(load({ NODE_ENV: 'production' }).deviceSimulator).toBe(true);
    expect(load({ NODE_ENV: 'production', DEVICE_SIMULATOR: 'false' }).deviceSimulator).toBe(false);
    expect(load({ NODE_ENV: 'development' }).deviceSimulator).toBe(true);
    expect(() => load({ MQTT_PORT: 'abc' })).toThrow(/MQTT_PORT must be a port number/);
    expect(() => load({ MQTT_PORT: '70000' })).toThrow(/MQTT_PORT/);
    expect(() => load({ MQTT_TOPIC_ROOT: '$thing' })).toThrow(/MQTT_TOPIC_ROOT/);
    expect(() => load({ MQTT_URL: 'http://x' })).toThrow(/MQTT_URL/);
    expect(() => load({ MQTT_URL: 'nonsense://user:secret@x' })).not.toThrow(/secret/);
  });

  it('fails to start on a taken port it was given, with a message naming MQTT_PORT and MQTT_URL; takes a free one when the taken port is the default; off sends nothing', async () => {
    const base = load({ NODE_ENV: 'test' });
    const kv = memoryKv();
    // the machine's Mosquitto holds 127.0.0.1:1883; take a port ourselves so the test never depends on it
    const { createServer } = await import('node:net');
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    const port = (holder.address() as { port: number }).port;
    try {
      const gw = createGateway({ config: { ...base, mqtt: { ...base.mqtt, port, portChosen: true, host: '127.0.0.1' } }, kv, db: undefined as never });
      await expect(gw.start()).rejects.toThrow(/MQTT port \d+ .*in use.*MQTT_PORT.*MQTT_URL/);
      await gw.close();
      // npm start beside a broker that holds 1883: the console starts, its gateway on a free port, and says so
      const warnings: string[] = [];
      const log = { info: () => undefined, error: () => undefined, warn: (_o: object, m?: string) => void warnings.push(String(m)) };
      const fallback = createGateway({ config: { ...base, mqtt: { ...base.mqtt, port, portChosen: false, host: '127.0.0.1' } }, kv, db: undefined as never }, { log });
      await fallback.start();
      expect(fallback.port).toBeGreaterThan(0);
      expect(fallback.port).not.toBe(port);
      expect(warnings.join('\n')).toMatch(/MQTT port \d+ is taken.*MQTT_PORT.*MQTT_URL/);
      await fallback.close();
    } finally {
      holder.close();
    }
    const off = createGateway({ config: base, kv, db: undefined as never });
    expect(off.mode).toBe('off');
    await off.start();
    expect(await off.send({ cloudProductId: 'P', deviceName: 'd' }, 'action', {})).toBe(false);
    await off.close();
  });
});

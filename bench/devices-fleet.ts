/**
 * The device side of bench/devices.ts, in a process of its own (spawned by it with an IPC channel), so the
 * simulated devices do not share the server's event loop:
 *
 *   fleet   <sessions.json> <speed> <spreadMs>        createFleet: the devices connect, report, and play the OTA
 *                                                     updates they are sent (real HTTP downloads); counters are
 *                                                     sent to the parent every second; 'stop' stops them.
 *   publish <sessions.json> <rate> <seconds> <spreadMs> raw mqtt.js clients (one per session) publishing signed
 *                                                     uplinks at `rate` messages/s in all for `seconds`: property
 *                                                     reports (70%), OTA progress reports (20%), face events (10%).
 */
import { readFileSync } from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';
import { signUplink } from '@console/server/src/areas/device/gateway/credentials.js';
import { createFleet, type FleetSession } from '@console/server/src/areas/device/gateway/fleet.js';
import { upTopic, type UpTopicKind } from '@console/server/src/areas/device/gateway/topics.js';

const [mode, file, a, b, c] = process.argv.slice(2);
const sessions = JSON.parse(readFileSync(file!, 'utf8')) as FleetSession[];
const send = (m: unknown) => process.send?.(m);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function fleet(): Promise<void> {
  const f = createFleet({ sessions, speed: Number(a), connectSpreadMs: Number(c ?? b), version: '1.0.0', random: () => 0.5 });
  const timer = setInterval(() => send({ type: 'counters', counters: f.counters, rssMb: process.memoryUsage.rss() / 2 ** 20 }), 1000);
  process.on('message', (m: { type: string }) => {
    if (m.type !== 'stop') return;
    clearInterval(timer);
    void f.stop().then(() => {
      send({ type: 'stopped', counters: f.counters });
      setTimeout(() => process.exit(0), 200);
    });
  });
  await f.start();
  send({ type: 'started', counters: f.counters, rssMb: process.memoryUsage.rss() / 2 ** 20 });
}

async function publish(): Promise<void> {
  const rate = Number(a);
  const seconds = Number(b);
  const spread = Number(c);
  const run = Math.random().toString(36).slice(2, 8);
  const counters = { connected: 0, refused: 0, errors: 0, published: 0, acked: 0 };
  const clients: Array<{ s: FleetSession; key: Buffer; client: MqttClient }> = [];
  const gap = spread / sessions.length;
  await Promise.all(sessions.map(async (s, i) => {
    await sleep(i * gap);
    const client = mqtt.connect(s.mqttUrl!, {
      protocolVersion: 4, clientId: s.clientId, username: s.username, password: s.password, clean: true, keepalive: 60, reconnectPeriod: 0, connectTimeout: 30_000,
    });
    await new Promise<void>((resolve) => {
      client.once('connect', () => {
        counters.connected++;
        resolve();
      });
      client.once('error', () => {
        counters.refused++;
        resolve();
      });
    });
    clients.push({ s, key: Buffer.from(s.sessionKey, 'hex'), client });
  }));
  send({ type: 'started', counters });
  // the parent says when (it reads the gateway's counters from then)
  await new Promise<void>((resolve) => process.on('message', (m: { type: string }) => m.type === 'go' && resolve()));
  let seq = 0;
  const one = (i: number) => {
    const { s, key, client } = clients[i % clients.length]!;
    if (!client.connected) return;
    const pick = seq % 10;
    const clientToken = `${run}-${++seq}`;
    const kind: UpTopicKind = pick < 7 ? 'property' : pick < 9 ? 'ota' : 'event';
    const topic = upTopic(s.topicRoot, kind, s.cloudProductId, s.deviceName);
    const timestamp = Date.now();
    const env = kind === 'property'
      ? { method: 'report', clientToken, timestamp, params: { lock_state: seq % 2, battery: 50 + (seq % 50), rssi: -40 - (seq % 50) } }
      : kind === 'ota'
        ? { type: 'report_progress', clientToken, timestamp, report: { taskId: '0', version: '9.9.9', progress: { state: 'downloading', percent: 25 } } }
        : { method: 'event_post', clientToken, timestamp, params: { eventId: 'face', type: 'info', event: 'match', userId: `u-${seq % 1000}` } };
    counters.published++;
    client.publish(topic, JSON.stringify(signUplink(key, s.username, topic, env)), { qos: 1 }, (err) => {
      if (err) counters.errors++;
      else counters.acked++;
    });
  };
  // every 20 ms, the messages due since the start (so a late timer catches up)
  const t0 = performance.now();
  let sent = 0;
  let i = 0;
  const timer = setInterval(() => send({ type: 'counters', counters, rssMb: process.memoryUsage.rss() / 2 ** 20 }), 1000);
  while (performance.now() - t0 < seconds * 1000) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate);
    for (; sent < due; sent++) one(i++);
    await sleep(20);
  }
  // the acks of what was sent
  const until = Date.now() + 60_000;
  while (counters.acked + counters.errors < counters.published && Date.now() < until) await sleep(100);
  clearInterval(timer);
  send({ type: 'done', counters, seconds: (performance.now() - t0) / 1000 });
  await Promise.all(clients.map(({ client }) => client.endAsync(true).catch(() => undefined)));
  setTimeout(() => process.exit(0), 200);
}

if (mode === 'fleet') await fleet();
else if (mode === 'publish') await publish();
else throw new Error(`unknown mode ${mode}`);

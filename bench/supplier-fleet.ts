/**
 * The device side of bench/supplier.ts (part 3, activations), in a process of its own (forked with an IPC channel),
 * so the publishers do not share the server's event loop:
 *
 *   publish <plan.json>   raw mqtt.js clients (one per session) publishing signed uplinks at `rate` messages/s in
 *                         all for `seconds`: a share `locationShare` of them are location reports (`location`
 *                         `report`, docs/device-protocol.md §6) carrying a `regionCode`, every other one inside the
 *                         locks' dispatched province (plan.inside) and every other one outside it (plan.outside,
 *                         taken in turn, so a lock is seen in many regions); the rest is the ingestion bench's mix
 *                         (bench/devices-fleet.ts): property reports 70%, OTA progress reports 20%, face events 10%.
 *
 * Counters go to the parent every second; the parent sends 'go' once it reads the gateway's counters.
 */
import { readFileSync } from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';
import { signUplink } from '@console/server/src/areas/device/gateway/credentials.js';
import type { FleetSession } from '@console/server/src/areas/device/gateway/fleet.js';
import { upTopic, type UpTopicKind } from '@console/server/src/areas/device/gateway/topics.js';

export interface PublishPlan {
  sessions: FleetSession[];
  rate: number;
  seconds: number;
  /** connects spread over this many ms */
  spreadMs: number;
  /** share of the messages that are location reports (0..1) */
  locationShare: number;
  /** district codes inside the province the locks are dispatched to */
  inside: Array<{ code: string; lat: number; lng: number; address: string }>;
  /** district codes of other provinces */
  outside: Array<{ code: string; lat: number; lng: number; address: string }>;
}

const [mode, file] = process.argv.slice(2);
const send = (m: unknown) => process.send?.(m);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function publish(plan: PublishPlan): Promise<void> {
  const { sessions, rate, seconds, spreadMs, locationShare, inside, outside } = plan;
  const run = Math.random().toString(36).slice(2, 8);
  const counters = { connected: 0, refused: 0, errors: 0, published: 0, acked: 0, location: 0, locationInside: 0, locationOutside: 0, other: 0 };
  const clients: Array<{ s: FleetSession; key: Buffer; client: MqttClient }> = [];
  const gap = spreadMs / sessions.length;
  await Promise.all(sessions.map(async (s, i) => {
    await sleep(i * gap);
    const client = mqtt.connect(s.mqttUrl!, {
      protocolVersion: 4, clientId: s.clientId, username: s.username, password: s.password, clean: true, keepalive: 60, reconnectPeriod: 0, connectTimeout: 30_000,
    });
    // a client that neither connects nor fails (closed, or no answer under load) is counted as refused after 35 s
    await new Promise<void>((resolve) => {
      let settled = false;
      const settle = (ok: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (ok) counters.connected++;
        else counters.refused++;
        resolve();
      };
      const timer = setTimeout(() => settle(false), 35_000);
      client.once('connect', () => settle(true));
      client.once('error', () => settle(false));
      client.once('close', () => settle(false));
    });
    clients.push({ s, key: Buffer.from(s.sessionKey, 'hex'), client });
  }));
  send({ type: 'started', counters });
  await new Promise<void>((resolve) => process.on('message', (m: { type: string }) => m.type === 'go' && resolve()));
  let seq = 0;
  let other = 0;
  let locations = 0;
  let share = 0;
  const one = (i: number) => {
    const { s, key, client } = clients[i % clients.length]!;
    if (!client.connected) return;
    const clientToken = `${run}-${++seq}`;
    const timestamp = Date.now();
    share += locationShare;
    let kind: UpTopicKind;
    let env: Record<string, unknown>;
    if (share >= 1) {
      share -= 1;
      kind = 'location';
      const n = locations++;
      const out = n % 2 === 1;
      // outside: the next region of the list each time (a lock is seen in many regions); inside: any district
      const place = out ? outside[Math.floor(n / 2) % outside.length]! : inside[Math.floor(n / 2) % inside.length]!;
      env = { method: 'report', clientToken, timestamp, params: { lat: place.lat, lng: place.lng, accuracy: 15, regionCode: place.code, address: place.address } };
      counters.location++;
      if (out) counters.locationOutside++;
      else counters.locationInside++;
    } else {
      const pick = other++ % 10;
      kind = pick < 7 ? 'property' : pick < 9 ? 'ota' : 'event';
      env = kind === 'property'
        ? { method: 'report', clientToken, timestamp, params: { lock_state: seq % 2, battery: 50 + (seq % 50), rssi: -40 - (seq % 50) } }
        : kind === 'ota'
          ? { type: 'report_progress', clientToken, timestamp, report: { taskId: '0', version: '9.9.9', progress: { state: 'downloading', percent: 25 } } }
          : { method: 'event_post', clientToken, timestamp, params: { eventId: 'face', type: 'info', event: 'match', userId: `u-${seq % 1000}` } };
      counters.other++;
    }
    const topic = upTopic(s.topicRoot, kind, s.cloudProductId, s.deviceName);
    counters.published++;
    client.publish(topic, JSON.stringify(signUplink(key, s.username, topic, env as never)), { qos: 1 }, (err) => {
      if (err) counters.errors++;
      else counters.acked++;
    });
  };
  // every 20 ms, the messages due since the start (a late timer catches up)
  const t0 = performance.now();
  let sent = 0;
  let i = 0;
  const timer = setInterval(() => send({ type: 'counters', counters, rssMb: process.memoryUsage.rss() / 2 ** 20 }), 1000);
  while (performance.now() - t0 < seconds * 1000) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate);
    for (; sent < due; sent++) one(i++);
    await sleep(20);
  }
  const publishSeconds = (performance.now() - t0) / 1000;
  const until = Date.now() + 60_000;
  while (counters.acked + counters.errors < counters.published && Date.now() < until) await sleep(100);
  clearInterval(timer);
  send({ type: 'done', counters, seconds: publishSeconds });
  await Promise.all(clients.map(({ client }) => client.endAsync(true).catch(() => undefined)));
  setTimeout(() => process.exit(0), 200);
}

if (mode === 'publish') await publish(JSON.parse(readFileSync(file!, 'utf8')) as PublishPlan);
else throw new Error(`unknown mode ${mode}`);

/**
 * Raw mqtt.js publishers of the ingestion benches (bench/devices-fleet.ts, bench/supplier-fleet.ts), run in a child
 * process with an IPC channel to the bench: one client per session, signed uplinks (QoS 1) at a steady rate.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { signUplink } from '@console/server/src/areas/device/gateway/credentials.js';
import type { FleetSession } from '@console/server/src/areas/device/gateway/fleet.js';
import { upTopic, type UpTopicKind } from '@console/server/src/areas/device/gateway/topics.js';

export interface Publisher {
  s: FleetSession;
  key: Buffer;
  client: MqttClient;
}

export interface PublishCounters {
  connected: number;
  refused: number;
  errors: number;
  published: number;
  acked: number;
}

export const send = (m: unknown) => process.send?.(m);
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Connects a client per session, spread over `spreadMs`; a client that neither connects nor fails (closed, or no
 * answer under load) is counted as refused after 35 s. Tells the parent 'started', then waits for its 'go'.
 */
export async function connectPublishers(sessions: readonly FleetSession[], spreadMs: number, counters: PublishCounters): Promise<Publisher[]> {
  const clients: Publisher[] = [];
  const gap = spreadMs / sessions.length;
  await Promise.all(sessions.map(async (s, i) => {
    await sleep(i * gap);
    const client = mqtt.connect(s.mqttUrl!, {
      protocolVersion: 4, clientId: s.clientId, username: s.username, password: s.password, clean: true, keepalive: 60, reconnectPeriod: 0, connectTimeout: 30_000,
    });
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
  // the parent says when (it reads the gateway's counters from then)
  await new Promise<void>((resolve) => process.on('message', (m: { type: string }) => m.type === 'go' && resolve()));
  return clients;
}

/** The issue-11 mix, by the message's place in it: property reports 70 %, OTA progress 20 %, face events 10 %. */
export function mixedUplink(n: number, clientToken: string, timestamp: number): { kind: UpTopicKind; env: Record<string, unknown> } {
  const pick = n % 10;
  if (pick < 7) return { kind: 'property', env: { method: 'report', clientToken, timestamp, params: { lock_state: n % 2, battery: 50 + (n % 50), rssi: -40 - (n % 50) } } };
  if (pick < 9) return { kind: 'ota', env: { type: 'report_progress', clientToken, timestamp, report: { taskId: '0', version: '9.9.9', progress: { state: 'downloading', percent: 25 } } } };
  return { kind: 'event', env: { method: 'event_post', clientToken, timestamp, params: { eventId: 'face', type: 'info', event: 'match', userId: `u-${n % 1000}` } } };
}

/** Publishes one signed uplink of a publisher (QoS 1), counted when sent and when acknowledged or failed. */
export function publishUplink(p: Publisher, kind: UpTopicKind, env: Record<string, unknown>, counters: PublishCounters): void {
  const topic = upTopic(p.s.topicRoot, kind, p.s.cloudProductId, p.s.deviceName);
  counters.published++;
  p.client.publish(topic, JSON.stringify(signUplink(p.key, p.s.username, topic, env as never)), { qos: 1 }, (err) => {
    if (err) counters.errors++;
    else counters.acked++;
  });
}

/**
 * Calls `one(i)` `rate` times a second for `seconds` (every 20 ms, the messages due since the start: a late timer
 * catches up), sending the counters to the parent every second; then waits for the acks (60 s at most), says 'done'
 * with the publishing time, closes the clients and exits.
 */
export async function publishAtRate(clients: Publisher[], rate: number, seconds: number, counters: PublishCounters, one: (i: number) => void): Promise<void> {
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

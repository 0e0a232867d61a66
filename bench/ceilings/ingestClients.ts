/**
 * The publishing clients of bench/ceilings/ingest.ts, in a process of their own (IPC with the bench): one mqtt.js
 * client per session (QoS 1, MQTT 3.1.1), each publishing the issue-11 mix of signed uplinks (property reports 70 %,
 * OTA progress 20 %, face events 10 %) as fast as its acks come back (`window` messages in flight per client).
 *
 *   ingestClients.ts <json: { sessionsFile, url, root, seconds, window, spreadMs }>
 *
 * Tells the bench 'started' once every client is connected (or refused), publishes on its 'go', sends its counters
 * every second, then waits for the last acks (30 s at most), says 'done' and exits.
 */
import { readFileSync } from 'node:fs';
import { signUplink } from '@console/server/src/areas/device/gateway/credentials.js';
import type { FleetSession } from '@console/server/src/areas/device/gateway/fleet.js';
import { upTopic, type UpTopicKind } from '@console/server/src/areas/device/gateway/topics.js';
import { connectPublishers, mixedUplink, type Publisher, send, sleep } from '../publishers.js';

export interface ClientsConfig {
  sessionsFile: string;
  /** the broker the clients connect to */
  url: string;
  /** the topic root they publish under (the server's, or the ceiling subscriber's) */
  root: string;
  seconds: number;
  window: number;
  spreadMs: number;
}

export interface ClientCounters {
  connected: number;
  refused: number;
  errors: number;
  published: number;
  acked: number;
  /** published per topic kind (property, ota, event) */
  byKind: Record<string, number>;
}

const config = JSON.parse(process.argv[2]!) as ClientsConfig;
const sessions = (JSON.parse(readFileSync(config.sessionsFile, 'utf8')) as FleetSession[]).map((s) => ({ ...s, mqttUrl: config.url }));
const counters: ClientCounters = { connected: 0, refused: 0, errors: 0, published: 0, acked: 0, byKind: {} };
const clients = await connectPublishers(sessions, config.spreadMs, counters);
const run = Math.random().toString(36).slice(2, 8);
let seq = 0;
let stopped = false;

/** one message of a client; the next follows its ack */
function next(p: Publisher): void {
  if (stopped || !p.client.connected) return;
  const n = seq++;
  const { kind, env } = mixedUplink(n, `${run}-${n + 1}`, Date.now());
  const topic = upTopic(config.root, kind as UpTopicKind, p.s.cloudProductId, p.s.deviceName);
  counters.published++;
  counters.byKind[kind] = (counters.byKind[kind] ?? 0) + 1;
  p.client.publish(topic, JSON.stringify(signUplink(p.key, p.s.username, topic, env as never)), { qos: 1 }, (err) => {
    if (err) counters.errors++;
    else counters.acked++;
    next(p);
  });
}

const t0 = performance.now();
const cpu0 = process.cpuUsage();
const timer = setInterval(() => send({ type: 'counters', counters, rssMb: process.memoryUsage.rss() / 2 ** 20 }), 1000);
for (const p of clients) for (let i = 0; i < config.window; i++) next(p);
await sleep(config.seconds * 1000);
stopped = true;
const publishSeconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
for (const until = Date.now() + 30_000; counters.acked + counters.errors < counters.published && Date.now() < until;) await sleep(50);
clearInterval(timer);
send({ type: 'done', counters, seconds: publishSeconds, cpuMs: (cpu.user + cpu.system) / 1000 });
await Promise.all(clients.map(({ client }) => client.endAsync(true).catch(() => undefined)));
setTimeout(() => process.exit(0), 200);

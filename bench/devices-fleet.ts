/**
 * The device side of bench/devices.ts, in a process of its own (spawned by it with an IPC channel), so the
 * simulated devices do not share the server's event loop:
 *
 *   fleet   <sessions.json> <speed> <spreadMs>        createFleet: the devices connect, report (properties every
 *                                                     FLEET_REPORT_MS too, when set), and play the OTA updates
 *                                                     they are sent (real HTTP downloads); counters are sent to
 *                                                     the parent every second; 'stop' stops them.
 *   publish <sessions.json> <rate> <seconds> <spreadMs> raw mqtt.js clients (one per session) publishing signed
 *                                                     uplinks at `rate` messages/s in all for `seconds`: property
 *                                                     reports (70%), OTA progress reports (20%), face events (10%).
 */
import { readFileSync } from 'node:fs';
import { createFleet, type FleetSession } from '@console/server/src/areas/device/gateway/fleet.js';
import { connectPublishers, mixedUplink, publishAtRate, publishUplink, send } from './publishers.js';

const [mode, file, a, b, c] = process.argv.slice(2);
const sessions = JSON.parse(readFileSync(file!, 'utf8')) as FleetSession[];

async function fleet(): Promise<void> {
  const f = createFleet({ sessions, speed: Number(a), connectSpreadMs: Number(c ?? b), version: '1.0.0', random: () => 0.5, intervalMs: Number(process.env.FLEET_REPORT_MS ?? 0) });
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
  const run = Math.random().toString(36).slice(2, 8);
  const counters = { connected: 0, refused: 0, errors: 0, published: 0, acked: 0 };
  const clients = await connectPublishers(sessions, Number(c), counters);
  let seq = 0;
  await publishAtRate(clients, Number(a), Number(b), counters, (i) => {
    const p = clients[i % clients.length]!;
    if (!p.client.connected) return;
    const n = seq++;
    const { kind, env } = mixedUplink(n, `${run}-${n + 1}`, Date.now());
    publishUplink(p, kind, env, counters);
  });
}

if (mode === 'fleet') await fleet();
else if (mode === 'publish') await publish();
else throw new Error(`unknown mode ${mode}`);

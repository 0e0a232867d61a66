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
import type { FleetSession } from '@console/server/src/areas/device/gateway/fleet.js';
import { connectPublishers, mixedUplink, publishAtRate, publishUplink } from './publishers.js';

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

async function publish(plan: PublishPlan): Promise<void> {
  const { sessions, rate, seconds, spreadMs, locationShare, inside, outside } = plan;
  const run = Math.random().toString(36).slice(2, 8);
  const counters = { connected: 0, refused: 0, errors: 0, published: 0, acked: 0, location: 0, locationInside: 0, locationOutside: 0, other: 0 };
  const clients = await connectPublishers(sessions, spreadMs, counters);
  let seq = 0;
  let other = 0;
  let locations = 0;
  let share = 0;
  await publishAtRate(clients, rate, seconds, counters, (i) => {
    const p = clients[i % clients.length]!;
    if (!p.client.connected) return;
    const clientToken = `${run}-${++seq}`;
    const timestamp = Date.now();
    share += locationShare;
    if (share >= 1) {
      share -= 1;
      const n = locations++;
      const out = n % 2 === 1;
      // outside: the next region of the list each time (a lock is seen in many regions); inside: any district
      const place = out ? outside[Math.floor(n / 2) % outside.length]! : inside[Math.floor(n / 2) % inside.length]!;
      publishUplink(p, 'location', { method: 'report', clientToken, timestamp, params: { lat: place.lat, lng: place.lng, accuracy: 15, regionCode: place.code, address: place.address } }, counters);
      counters.location++;
      if (out) counters.locationOutside++;
      else counters.locationInside++;
    } else {
      const { kind, env } = mixedUplink(other++, clientToken, timestamp);
      publishUplink(p, kind, env, counters);
      counters.other++;
    }
  });
}

if (mode === 'publish') await publish(JSON.parse(readFileSync(file!, 'utf8')) as PublishPlan);
else throw new Error(`unknown mode ${mode}`);

import type { Duplex } from 'node:stream';
import type { IPublishPacket, MqttClient } from 'mqtt';
import { timestampMs } from './credentials.js';
import type { DeviceKey, DeviceKeys } from './deviceKeys.js';
import { checkSigned, type Decoded, decodeEnvelope } from './envelope.js';
import type { Ingest } from './ingest.js';
import type { GatewayLogger } from './log.js';
import { SkimmedStream } from './skim.js';
import { type ParsedTopic, parseTopic, upFilter } from './topics.js';
import type { UplinkKind } from './types.js';

/** how mqtt.js makes a link's stream (a private field of its client: the skim wraps it) */
type StreamBuilder = (client: MqttClient, opts?: unknown) => unknown;

export interface ExternalOptions {
  url: string;
  username?: string;
  password?: string;
  root: string;
  instanceId: string;
  keys: DeviceKeys;
  ingest: Ingest;
  log: GatewayLogger;
  /** members of the shared subscription this instance holds (default `LINKS`) */
  links?: number;
}

/**
 * Each instance holds several members of the shared subscription: the broker sends a member a bounded window of
 * messages before it waits for their acks (Mosquitto's max_inflight_messages, 20 by default) and queues a bounded
 * number for it (max_queued_messages, 1,000) before it drops the next ones silently. On a busy machine the window, not
 * the server's CPU, bounded what one member took (the broker must be scheduled to send the next 20), and the queue
 * overflowed: with 4 members 46,000–65,000 messages of a 20 s run were dropped, with 16 none (bench/ceilings/ingest.ts).
 */
export const LINKS = 16;

/** topics parsed and kept (`ExternalClient.topics`): a split, two patterns and an object less a message; forgotten all at once past this */
const TOPIC_CACHE = 50_000;

/** The shared-subscription group of a topic root: instances of one deployment share; other roots never do. */
export const shareGroup = (root: string) => `console-${root}`;

/** The broker address without its user info, for logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'mqtt://?';
  }
}

/**
 * The gateway on another broker (Mosquitto): one clean-session client per instance in the shared subscription
 * `$share/{group}/{root}/up/+/+/+`, so each uplink goes to one instance. The broker knows no device, so every
 * uplink must carry a valid signed envelope; presence comes from signed `status` messages, the `offline` of a
 * last will included (signed at connect, bound to the session its `online` opened).
 */
export class ExternalClient {
  /** the instance's members of the shared subscription; commands leave through the first one connected */
  private clients: MqttClient[] = [];
  /** the links corked until the end of this turn of the event loop (`holdWrites`) */
  private readonly holding = new Set<MqttClient>();
  /** the topics of this root seen lately, parsed: a device sends on a few topics again and again */
  private readonly topics = new Map<string, ParsedTopic>();
  /** uplinks each member has read, in the order of `clients` (tests: the broker shares them out) */
  readonly taken: number[] = [];

  constructor(private readonly o: ExternalOptions) {}

  async start(): Promise<void> {
    const links = Math.max(1, this.o.links ?? LINKS);
    // the first member keeps the instance's client id (brokers' logs, ACLs); the others are numbered after it
    const started = await Promise.allSettled(Array.from({ length: links }, (_, i) => this.link(i === 0 ? `console-${this.o.instanceId}` : `console-${this.o.instanceId}-${i}`)));
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await this.close();
      throw failed.reason;
    }
  }

  private async link(clientId: string): Promise<void> {
    const { o } = this;
    // loaded here, not at start: a server with MQTT off or embedded never needs it (bench/RESULTS.md, "The embedded database's idle memory")
    const { default: mqtt } = await import('mqtt');
    const client = mqtt.connect(o.url, {
      protocolVersion: 4, clean: true, clientId, username: o.username, password: o.password,
      reconnectPeriod: 1000, connectTimeout: 10_000, keepalive: 30, manualConnect: true,
    });
    // the uplinks are read and acknowledged off the socket (skim.ts); mqtt.js gets the other packets
    this.clients.push(client);
    const member = this.taken.push(0) - 1;
    const holder = client as unknown as { streamBuilder?: StreamBuilder };
    const build = holder.streamBuilder;
    if (typeof build === 'function') {
      holder.streamBuilder = (c, opts) => new SkimmedStream(build(c, opts) as Duplex, (topic, payload) => {
        this.taken[member]!++;
        this.receive(topic, payload);
        return o.ingest.full;
      }, () => o.ingest.drained());
    }
    // what mqtt.js still hands over (a QoS 2 PUBLISH, never sent on a QoS 1 subscription; every uplink if the skim
    // could not wrap the stream): its ack waits only while the ingest buffer is full
    client.handleMessage = (packet: IPublishPacket, done) => {
      this.taken[member]!++;
      this.holdWrites(client);
      this.receive(packet.topic, packet.payload);
      if (o.ingest.full) void o.ingest.drained().then(() => done());
      else done();
    };
    client.connect();
    await new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        client.off('connect', connected);
        client.off('error', failed);
        if (!err) return resolve();
        client.end(true);
        reject(new Error(`cannot connect to the MQTT broker at ${redactUrl(o.url)} (MQTT_URL): ${err.message}`));
      };
      const connected = () => settle();
      const failed = (err: Error) => settle(err);
      client.on('connect', connected);
      client.on('error', failed);
    });
    client.on('error', (err) => o.log.warn({ err: err.message }, 'MQTT client error'));
    client.on('offline', () => o.log.warn({ broker: redactUrl(o.url) }, 'MQTT broker unreachable, reconnecting'));
    const filter = `$share/${shareGroup(o.root)}/${upFilter(o.root)}`;
    const granted = await client.subscribeAsync(filter, { qos: 1 });
    if (!granted.length || granted.some((g) => g.qos >= 0x80)) {
      throw new Error(`the MQTT broker at ${redactUrl(o.url)} refused the shared subscription ${filter} (MQTT_URL needs a broker with $share, e.g. Mosquitto 2)`);
    }
  }

  private receive(topic: string, payload: Buffer | string): void {
    const { ingest, keys } = this.o;
    ingest.received();
    let t = this.topics.get(topic);
    if (!t) {
      const parsed = parseTopic(this.o.root, topic);
      if (!parsed || parsed.direction !== 'up') return ingest.reject('bad_topic');
      if (this.topics.size >= TOPIC_CACHE) this.topics.clear();
      this.topics.set(topic, (t = parsed));
    }
    const d = decodeEnvelope(payload, t.kind);
    if (typeof d === 'string') return ingest.reject(d);
    const cached = keys.peek(t.cloudProductId, t.deviceName);
    if (cached !== undefined) return this.finish(cached, t, topic, d);
    // verified once the key is read: lookups of many devices arriving together are read in one query
    ingest.reserve();
    void keys.lookup(t.cloudProductId, t.deviceName).then((dk) => {
      ingest.release();
      this.finish(dk, t, topic, d);
    });
  }

  private finish(dk: DeviceKey | null, t: ParsedTopic, topic: string, d: Decoded): void {
    const { ingest } = this.o;
    if (!dk) return ingest.reject('unknown_device');
    const now = Date.now();
    if (t.kind === 'status') {
      if ((d.name !== 'online' && d.name !== 'offline') || !d.clientToken) return ingest.reject('bad_envelope');
      // presence is signed like every uplink: an `online` fresh, an `offline` (a last will is signed at connect and
      // delivered much later) without the clock, ending only the session its clientToken names
      const online = d.name === 'online';
      const reason = checkSigned(d, topic, dk.key, t.cloudProductId, t.deviceName, now, { fresh: online });
      if (reason) return ingest.reject(reason);
      ingest.pushPresence({ device: dk.device, online, at: now, session: d.clientToken });
      return;
    }
    const reason = checkSigned(d, topic, dk.key, t.cloudProductId, t.deviceName, now);
    if (reason) return ingest.reject(reason);
    ingest.pushUplink({
      device: dk.device, kind: t.kind as UplinkKind, method: d.name, clientToken: d.clientToken,
      timestamp: timestampMs(d.timestamp ?? now), params: d.body, receivedAt: now,
    });
  }

  /** a member is connected: the broker hands the uplinks to the members it reaches */
  get connected(): boolean {
    return this.clients.some((c) => c.connected);
  }

  async publish(topic: string, payload: string): Promise<void> {
    const client = this.clients.find((c) => c.connected) ?? this.clients[0];
    if (!client) throw new Error('the gateway is not connected to its MQTT broker');
    this.holdWrites(client);
    await client.publishAsync(topic, payload, { qos: 1, retain: false });
  }

  /**
   * Corks the link to the broker until the end of this turn of the event loop: the commands sent together (a batch's
   * event replies) leave in one write instead of a system call each, with the uplinks' PUBACKs waiting on that link
   * (skim.ts writes those before anything mqtt.js writes). Nothing waits longer than this turn of the event loop.
   */
  private holdWrites(client: MqttClient): void {
    const stream = client.stream;
    if (this.holding.has(client) || !stream || typeof stream.cork !== 'function') return;
    this.holding.add(client);
    stream.cork();
    setImmediate(() => {
      this.holding.delete(client);
      stream.uncork();
    });
  }

  async close(): Promise<void> {
    const clients = this.clients;
    this.clients = [];
    await Promise.all(clients.map((c) => c.endAsync()));
  }
}

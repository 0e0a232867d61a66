import type { Aedes, AuthenticateError, Client, PublishPacket, Subscription } from 'aedes';
import { createServer, type Server as NetServer } from 'node:net';
import { aliyunVerify, parseAliyunUsername, parseTencentUsername, tencentVerify, timestampMs } from './credentials.js';
import type { DeviceKey, DeviceKeys } from './deviceKeys.js';
import { checkClock, checkSigned, decodeEnvelope, MAX_PAYLOAD_BYTES } from './envelope.js';
import type { Ingest } from './ingest.js';
import type { GatewayLogger } from './log.js';
import { ConnectionLimits, type GuardRefusal, GuardedConnection } from './portGuard.js';
import { isOwnDownFilter, isValidName, parseTopic } from './topics.js';
import type { UplinkKind } from './types.js';

export interface EmbeddedOptions {
  port: number;
  /**
   * the port is the default, not asked for (MQTT_PORT unset): when another broker holds it, listen on a free port
   * (logged) rather than refuse to start, so `npm start` works beside a system Mosquitto
   */
  anyPortIfTaken?: boolean;
  host: string;
  root: string;
  instanceId: string;
  keys: DeviceKeys;
  ingest: Ingest;
  log: GatewayLogger;
  /** open connections in total and per address; the wait for a CONNECT (ms) */
  maxConnections: number;
  maxConnectionsPerAddress: number;
  connectTimeoutMs: number;
}

/** connections the port closed before they were devices, by reason */
export type PortRefusals = Partial<Record<GuardRefusal | 'connection_limit', number>>;

interface Connection extends DeviceKey {
  address?: string;
  online: boolean;
}

type ReturnCode = 0 | 4 | 5;

function refusal(rc: 3 | 4 | 5, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: rc as AuthenticateError['returnCode'] });
}

/**
 * The embedded broker (aedes 1.x, MQTT 3.1.1): devices sign in with Tencent or Alibaba credentials, may only
 * publish to their own uplink topics and subscribe to their own downlinks; uplinks go to the ingest from the
 * `published` hook (it runs only on the broker the message came in to), presence from connection events.
 */
export class EmbeddedBroker {
  port = 0;
  private broker?: Aedes;
  private server?: NetServer;
  private readonly connections = new Map<Client, Connection>();
  /** open connections per SN: a takeover (same client id connecting again) is no presence change */
  private readonly online = new Map<string, number>();
  private readonly limits: ConnectionLimits;
  readonly refused: PortRefusals = {};

  constructor(private readonly o: EmbeddedOptions) {
    this.limits = new ConnectionLimits(o.maxConnections, o.maxConnectionsPerAddress);
  }

  private countRefusal(reason: GuardRefusal | 'connection_limit'): void {
    this.refused[reason] = (this.refused[reason] ?? 0) + 1;
  }

  async start(): Promise<void> {
    const { o } = this;
    // loaded here, not at start: a server with MQTT off never needs it (bench/RESULTS.md, "The embedded database's idle memory")
    const { Aedes: AedesBroker } = await import('aedes');
    const broker = await AedesBroker.createBroker({
      id: `console-${o.instanceId}`,
      drainTimeout: 30_000,
      connectTimeout: o.connectTimeoutMs,
      authenticate: (client, username, password, done) => {
        this.authenticate(client, username, password).then(
          (rc) => (rc === 0 ? done(null, true) : done(refusal(rc, rc === 4 ? 'bad user name or password' : 'not authorized'), null)),
          (err: unknown) => {
            o.log.error({ err }, 'device authentication failed');
            done(refusal(3, 'server unavailable'), null);
          },
        );
      },
      authorizePublish: (client, packet, cb) => {
        if (!client) return cb(null);
        const c = this.connections.get(client);
        const t = parseTopic(o.root, packet.topic);
        const own = c && t && t.direction === 'up' && t.cloudProductId === c.device.cloudProductId && t.deviceName === c.device.deviceName;
        if (!own) return cb(new Error('publish not allowed'));
        if (packet.payload.length > MAX_PAYLOAD_BYTES) return cb(new Error('payload too large'));
        packet.retain = false;
        cb(null);
      },
      authorizeSubscribe: (client, sub: Subscription, cb) => {
        const c = this.connections.get(client);
        if (!c || !isOwnDownFilter(o.root, sub.topic, c.device.cloudProductId, c.device.deviceName)) return cb(null, null);
        cb(null, { ...sub, qos: sub.qos > 1 ? 1 : sub.qos });
      },
      published: (packet, client, cb) => {
        if (!client) return cb();
        const c = this.connections.get(client);
        if (!c) return cb();
        const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
        this.accept(c, packet.topic, payload);
        // the device's next packets wait only while the buffer is full
        if (o.ingest.full) void o.ingest.drained().then(() => cb());
        else cb();
      },
    });
    broker.on('clientReady', (client) => this.presence(client, true));
    broker.on('clientDisconnect', (client) => this.presence(client, false));
    broker.on('keepaliveTimeout', (client) => this.presence(client, false));
    broker.on('clientError', (_client, err) => o.log.warn({ err: err.message }, 'device connection error'));
    this.broker = broker;

    // every socket is bounded before aedes parses a byte of it: limits on open connections, then packet sizes
    const server = createServer((socket) => {
      const address = socket.remoteAddress ?? '';
      if (!this.limits.admit(address)) {
        this.countRefusal('connection_limit');
        socket.destroy();
        return;
      }
      socket.once('close', () => this.limits.release(address));
      broker.handle(new GuardedConnection(socket, (reason) => this.countRefusal(reason)));
    });
    const listen = (port: number) => new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, o.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    try {
      try {
        await listen(o.port);
      } catch (e) {
        if (!o.anyPortIfTaken || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
        await listen(0);
        const taken = server.address();
        o.log.warn({ port: typeof taken === 'object' && taken ? taken.port : undefined },
          `MQTT port ${o.port} is taken (another broker?): the device gateway listens on a free port instead; set MQTT_PORT, or MQTT_URL to use that broker`);
      }
    } catch (e) {
      await new Promise<void>((r) => broker.close(() => r()));
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') {
        throw new Error(`MQTT port ${o.port} on ${o.host} is already in use (another broker?): set MQTT_PORT to a free port (0 = any), `
          + 'MQTT_URL to use that broker instead, or MQTT_PORT=off to run without the device gateway');
      }
      throw new Error(`the MQTT broker cannot listen on ${o.host}:${o.port} (MQTT_HOST, MQTT_PORT): ${(e as Error).message}`);
    }
    server.on('error', (err) => o.log.error({ err }, 'MQTT listener error'));
    const addr = server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : o.port;
    this.server = server;
  }

  private async authenticate(client: Client, username: string | undefined, password: Buffer | undefined): Promise<ReturnCode> {
    if (!username || !password || password.length > 512) return 4;
    const pw = password.toString('utf8');
    let dk: DeviceKey | null;
    const tencent = parseTencentUsername(username);
    if (tencent) {
      dk = await this.o.keys.lookupClientId(tencent.clientId);
      if (!dk) return 5;
      if (!tencentVerify(client.id, username, pw, dk.key)) return 4;
    } else {
      const ali = parseAliyunUsername(username);
      if (!ali || !isValidName(ali.productKey) || !isValidName(ali.deviceName)) return 4;
      dk = await this.o.keys.lookup(ali.productKey, ali.deviceName);
      if (!dk) return 5;
      if (!aliyunVerify(client.id, username, pw, dk.key)) return 4;
    }
    const conn = client.conn;
    this.connections.set(client, { ...dk, address: conn && 'remoteAddress' in conn ? conn.remoteAddress as string | undefined : undefined, online: false });
    if (conn instanceof GuardedConnection) conn.signedIn();
    return 0;
  }

  private accept(c: Connection, topic: string, payload: Buffer): void {
    const { ingest, root } = this.o;
    ingest.received();
    const t = parseTopic(root, topic);
    if (!t || t.direction !== 'up') return ingest.reject('bad_topic');
    // presence comes from the connection itself here
    if (t.kind === 'status') return ingest.reject('ignored');
    const d = decodeEnvelope(payload, t.kind);
    if (typeof d === 'string') return ingest.reject(d);
    const now = Date.now();
    // signing is optional here (CONNECT was verified), but a signature present must be right
    const reason = d.sign !== undefined ? checkSigned(d, topic, c.key, t.cloudProductId, t.deviceName, now) : checkClock(d, now);
    if (reason) return ingest.reject(reason);
    ingest.pushUplink({
      device: c.device, kind: t.kind as UplinkKind, method: d.name, clientToken: d.clientToken,
      timestamp: d.timestamp === undefined ? now : timestampMs(d.timestamp), params: d.body, receivedAt: now,
    });
  }

  private presence(client: Client, online: boolean): void {
    const c = this.connections.get(client);
    if (!c) return;
    if (!online) this.connections.delete(client);
    if (c.online === online) return;
    c.online = online;
    const sn = c.device.sn;
    const n = (this.online.get(sn) ?? 0) + (online ? 1 : -1);
    if (n > 0) this.online.set(sn, n);
    else this.online.delete(sn);
    if ((online && n === 1) || (!online && n === 0)) {
      this.o.ingest.pushPresence({ device: c.device, online, at: Date.now(), ...(online && c.address ? { address: c.address } : {}) });
    }
  }

  /** Hands a command to the devices subscribed here (none when the device is connected elsewhere). */
  deliver(topic: string, payload: string): Promise<void> {
    const broker = this.broker;
    if (!broker || broker.closed) return Promise.resolve();
    const packet: PublishPacket = { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false };
    return new Promise((resolve, reject) => broker.publish(packet, (err) => (err ? reject(err) : resolve())));
  }

  /** After certificates changed: devices whose certificate is no longer live are disconnected. */
  async recheck(): Promise<void> {
    for (const [client, c] of [...this.connections]) {
      const now = await this.o.keys.lookup(c.device.cloudProductId, c.device.deviceName);
      if (!now || !now.key.equals(c.key)) client.close();
    }
  }

  get connectedDevices(): number {
    return this.online.size;
  }

  async close(): Promise<void> {
    const { broker, server } = this;
    this.broker = undefined;
    this.server = undefined;
    if (broker) await new Promise<void>((r) => broker.close(() => r()));
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }
}

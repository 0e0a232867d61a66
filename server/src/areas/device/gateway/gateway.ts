import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../../../core/config.js';
import type { AppContext } from '../../../core/context.js';
import { EmbeddedBroker } from './broker.js';
import { newClientToken, signDownlink } from './credentials.js';
import { DeviceKeys, type DeviceKeysOptions } from './deviceKeys.js';
import { ExternalClient, redactUrl } from './external.js';
import { Ingest, type IngestOptions } from './ingest.js';
import { type GatewayLogger, silentLogger } from './log.js';
import { downTopic } from './topics.js';
import type { DeviceIdentity, DownlinkKind, Gateway, GatewayStats, PresenceHandler, UplinkHandler, UplinkKind } from './types.js';

export interface GatewayOptions {
  log?: GatewayLogger;
  /** unique per gateway (default: host, pid and a random suffix); names the external client and the aedes broker */
  instanceId?: string;
  /** overrides of config.mqtt (tests: a second instance, another root) */
  mqtt?: Partial<Config['mqtt']>;
  ingest?: IngestOptions;
  keys?: DeviceKeysOptions;
}

/** A gateway beyond the `Gateway` boundary: what the simulator sessions and tests need. */
export interface DeviceGateway extends Gateway {
  readonly topicRoot: string;
  /** the address devices connect to (MQTT_PUBLIC_URL, MQTT_URL, or the embedded broker's) */
  deviceUrl(): string | undefined;
  readonly keys: DeviceKeys;
}

/** the kv channel of commands: each instance's embedded broker delivers to the devices connected there */
const downChannel = (root: string) => `gateway:down:${root}`;

/** Picks the mode from config: MQTT_URL → external; MQTT_PORT a number → embedded; MQTT_PORT=off → off. */
export function createGateway(ctx: Pick<AppContext, 'config' | 'db' | 'kv'>, opts: GatewayOptions = {}): DeviceGateway {
  const cfg = { ...ctx.config.mqtt, ...opts.mqtt };
  const mode: Gateway['mode'] = cfg.url ? 'external' : cfg.port === 'off' ? 'off' : 'embedded';
  const log = opts.log ?? silentLogger;
  const instanceId = opts.instanceId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const root = cfg.topicRoot;
  const ingest = new Ingest(log, opts.ingest);
  const keys = new DeviceKeys(ctx, { onError: (err) => log.error({ err }, 'device certificates could not be read'), ...opts.keys });
  const embedded = mode === 'embedded' ? new EmbeddedBroker({
    port: cfg.port as number, anyPortIfTaken: !cfg.portChosen, host: cfg.host, root, instanceId, keys, ingest, log,
    maxConnections: cfg.maxConnections, maxConnectionsPerAddress: cfg.maxConnectionsPerAddress, connectTimeoutMs: cfg.connectTimeoutMs,
  }) : undefined;
  const external = mode === 'external' && cfg.url
    ? new ExternalClient({ url: cfg.url, username: cfg.username, password: cfg.password, root, instanceId, keys, ingest, log })
    : undefined;
  let started = false;
  let closed = false;

  const gateway: DeviceGateway = {
    mode,
    topicRoot: root,
    keys,
    get port() {
      return embedded ? embedded.port : undefined;
    },
    onUplink(kinds: readonly UplinkKind[], handler: UplinkHandler, opts?: { repeats?: boolean | readonly UplinkKind[] }) {
      ingest.onUplink(kinds, handler, opts);
    },
    onPresence(handler: PresenceHandler) {
      ingest.onPresence(handler);
    },
    async send(device: Pick<DeviceIdentity, 'cloudProductId' | 'deviceName'>, kind: DownlinkKind, payload: Record<string, unknown>) {
      if (mode === 'off' || closed) return false;
      const dk = await keys.lookup(device.cloudProductId, device.deviceName);
      if (!dk) throw new Error(`no live certificate for device ${device.cloudProductId}/${device.deviceName}`);
      const clientToken = typeof payload.clientToken === 'string' && payload.clientToken ? payload.clientToken : newClientToken();
      const timestamp = typeof payload.timestamp === 'number' ? payload.timestamp : Date.now();
      const topic = downTopic(root, kind, device.cloudProductId, device.deviceName);
      const body = JSON.stringify(signDownlink(dk.key, topic, { ...payload, clientToken, timestamp }));
      if (external) await external.publish(topic, body);
      else await ctx.kv.publish(downChannel(root), JSON.stringify({ topic, payload: body }));
      return clientToken;
    },
    flush: () => ingest.flush(),
    stats(): GatewayStats {
      const c = ingest.counters;
      return {
        mode, received: c.received, accepted: c.accepted, flushed: c.flushed, rejected: { ...c.rejected }, dropped: c.dropped,
        presence: c.presence, handlerErrors: c.handlerErrors, buffered: ingest.size, ...(embedded ? { connected: embedded.connectedDevices, refusedConnections: { ...embedded.refused } } : {}),
        ...(external ? { brokerConnected: external.connected } : {}),
      };
    },
    deviceUrl() {
      if (cfg.publicUrl) return cfg.publicUrl;
      if (cfg.url) return redactUrl(cfg.url);
      if (!embedded?.port) return undefined;
      const host = cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host;
      return `mqtt://${host.includes(':') ? `[${host}]` : host}:${embedded.port}`;
    },
    async start() {
      if (started || mode === 'off') return;
      started = true;
      await keys.start(() => void embedded?.recheck().catch((err: unknown) => log.error({ err }, 'device recheck failed')));
      if (embedded) {
        await embedded.start();
        await ctx.kv.subscribe(downChannel(root), (message) => {
          if (closed) return;
          let m: { topic?: unknown; payload?: unknown };
          try {
            m = JSON.parse(message) as typeof m;
          } catch {
            return;
          }
          if (typeof m.topic === 'string' && typeof m.payload === 'string') {
            embedded.deliver(m.topic, m.payload).catch((err: unknown) => log.warn({ err }, 'command delivery failed'));
          }
        });
      }
      if (external) await external.start();
      log.info({ mode, root, ...(embedded ? { port: embedded.port } : {}), ...(cfg.url ? { broker: redactUrl(cfg.url) } : {}) }, 'device gateway started');
    },
    async close() {
      if (closed) return;
      closed = true;
      await embedded?.close();
      await external?.close();
      await ingest.close();
      keys.close();
    },
  };
  return gateway;
}

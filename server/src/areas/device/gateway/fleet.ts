import { createHash, randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { signUplink } from './credentials.js';
import { deviceDownFilter, parseTopic, type UpTopicKind, upTopic } from './topics.js';

/**
 * A fleet of simulated locks (one mqtt.js connection each), for `npm run simulate`, benches and tests. Devices
 * sign every uplink with their session key (the simulator never holds a device key, so it does not check the
 * server's signature on commands), report `report_info` on connect and properties every `intervalMs`, play OTA
 * updates (download, verify, install) and answer `action` commands.
 */

/** what `POST /api/omc-device/simulator/sessions` answers per device */
export interface FleetSession {
  sn: string;
  clientId: string;
  username: string;
  password: string;
  sessionKey: string;
  cloudProductId: string;
  deviceName: string;
  topicRoot: string;
  mqttUrl: string | null;
}

export interface FleetOptions {
  sessions: readonly FleetSession[];
  /** broker address when the sessions' is not reachable from here */
  mqttUrl?: string;
  /** property `report` every … ms (0 = only on connect) */
  intervalMs?: number;
  /** share of OTA updates that fail (at install), and that go silent (no more progress) */
  failRate?: number;
  timeoutRate?: number;
  /** pace of OTA steps: 1 = 200 ms between steps, 10 = 20 ms */
  speed?: number;
  /** download firmware files (default true); false reports the download without fetching */
  download?: boolean;
  /** connects are spread over this many ms (default: 5 ms per device, at most 10 s) */
  connectSpreadMs?: number;
  /** the firmware version devices start with */
  version?: string;
  random?: () => number;
  /** each notable thing a device does (the CLI prints them) */
  onEvent?: (sn: string, event: string) => void;
  /** where a device is: reported (`location` `report`) once it has connected, as a lock reports its activation */
  location?: (sn: string) => LocationReport | undefined;
}

/** A location report's params (docs/device-protocol.md §6): the position, and the region code it resolves to. */
export interface LocationReport {
  lat: number;
  lng: number;
  accuracy?: number;
  regionCode?: string;
  address?: string;
}

export interface FleetCounters {
  connected: number;
  refused: number;
  disconnects: number;
  published: number;
  commands: number;
  otaStarted: number;
  otaSucceeded: number;
  otaFailed: number;
  otaSilent: number;
  actions: number;
  /** events posted, and those the server answered (`event_reply`) */
  events: number;
  eventsAcked: number;
  bytesDownloaded: number;
  errors: number;
}

export interface SimDevice {
  readonly session: FleetSession;
  version: string;
  enabled: boolean;
  bound: boolean;
  connected: boolean;
  lockState: number;
  battery: number;
}

export interface Fleet {
  readonly counters: FleetCounters;
  readonly devices: readonly SimDevice[];
  device(sn: string): SimDevice | undefined;
  /** connects every device; resolves once each is connected or refused */
  start(): Promise<void>;
  /** says offline (signed) and disconnects every device */
  stop(): Promise<void>;
  /**
   * posts an event (`event_post`) from a connected device, resent every 2 s with the same client token until the
   * server answers it (at most 5 times): true once answered
   */
  event(sn: string, params: Record<string, unknown>): Promise<boolean>;
  /** a connected device reports where it is (`location` `report`); false when it is not connected */
  locate(sn: string, report: LocationReport): boolean;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const macOf = (sn: string) => createHash('md5').update(sn).digest('hex').slice(0, 12).match(/../g)!.join(':').toUpperCase();
const imeiOf = (sn: string) => `86${BigInt(`0x${createHash('md5').update(sn).digest('hex').slice(0, 12)}`).toString().padStart(13, '0').slice(-13)}`;

export function createFleet(opts: FleetOptions): Fleet {
  const random = opts.random ?? Math.random;
  const speed = opts.speed && opts.speed > 0 ? opts.speed : 1;
  const step = () => sleep(200 / speed);
  const counters: FleetCounters = {
    connected: 0, refused: 0, disconnects: 0, published: 0, commands: 0, otaStarted: 0, otaSucceeded: 0, otaFailed: 0, otaSilent: 0, actions: 0, events: 0, eventsAcked: 0, bytesDownloaded: 0, errors: 0,
  };
  const emit = (sn: string, e: string) => opts.onEvent?.(sn, e);
  const run = randomBytes(3).toString('hex');
  const clients = new Map<string, MqttClient>();
  const posters = new Map<string, (params: Record<string, unknown>) => Promise<boolean>>();
  const locators = new Map<string, (report: LocationReport) => boolean>();
  /** each device's current presence session (the clientToken of its `online` and of its last will) */
  const sessions = new Map<string, () => string>();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;
  const devices: SimDevice[] = opts.sessions.map((session) => ({
    session, version: opts.version ?? '1.0.0', enabled: true, bound: true, connected: false, lockState: 1, battery: 60 + Math.floor(random() * 40),
  }));

  function play(dev: SimDevice): Promise<void> {
    const s = dev.session;
    const key = Buffer.from(s.sessionKey, 'hex');
    let seq = 0;
    const token = () => `${run}-${++seq}`;
    const url = opts.mqttUrl ?? s.mqttUrl;
    if (!url) {
      counters.errors++;
      emit(s.sn, 'no broker address (the gateway is off?)');
      return Promise.resolve();
    }
    const topic = (kind: UpTopicKind) => upTopic(s.topicRoot, kind, s.cloudProductId, s.deviceName);
    // each connection is a presence session named by a fresh token: its signed `online` and its last will (signed
    // now, delivered by the broker whenever the device goes away) carry it
    let session = token();
    const will = () => ({
      topic: topic('status'), qos: 1 as const, retain: false,
      payload: Buffer.from(JSON.stringify(signUplink(key, s.username, topic('status'), { method: 'offline', clientToken: session, timestamp: Date.now(), params: {} }))),
    });
    const client = mqtt.connect(url, {
      protocolVersion: 4, clientId: s.clientId, username: s.username, password: s.password, clean: true, keepalive: 60,
      reconnectPeriod: 5000, connectTimeout: 10_000, will: will(),
    });
    clients.set(s.sn, client);
    sessions.set(s.sn, () => session);

    const send = (kind: UpTopicKind, name: string, body: Record<string, unknown>, clientToken = token()) => {
      if (!client.connected) return;
      const t = topic(kind);
      const base = kind === 'ota'
        ? { type: name, clientToken, timestamp: Date.now(), report: body }
        : { method: name, clientToken, timestamp: Date.now(), params: body };
      counters.published++;
      client.publish(t, JSON.stringify(signUplink(key, s.username, t, base)), { qos: 1 }, (err) => {
        if (err && !stopped) counters.errors++;
      });
    };
    locators.set(s.sn, (report) => {
      if (!client.connected) return false;
      send('location', 'report', { ...report });
      return true;
    });
    const awaiting = new Map<string, () => void>();
    posters.set(s.sn, async (params) => {
      const clientToken = token();
      counters.events++;
      const answered = new Promise<boolean>((resolve) => awaiting.set(clientToken, () => resolve(true)));
      for (let attempt = 0; attempt < 5; attempt++) {
        send('event', 'event_post', params, clientToken);
        if (await Promise.race([answered, sleep(2000).then(() => false)])) {
          counters.eventsAcked++;
          return true;
        }
      }
      awaiting.delete(clientToken);
      return false;
    });
    const progress = (taskId: unknown, version: unknown, state: string, extra: Record<string, unknown> = {}) =>
      send('ota', 'report_progress', { taskId, version, progress: { state, ...extra } });

    async function ota(cmd: Record<string, unknown>): Promise<void> {
      const { taskId, version, url: fileUrl } = cmd;
      counters.otaStarted++;
      if (String(version) === dev.version) {
        // told again what it already runs (its earlier final report was lost): succeeded at once
        counters.otaSucceeded++;
        progress(taskId, version, 'succeeded');
        send('ota', 'report_version', { version: dev.version });
        return;
      }
      emit(s.sn, `ota ${String(dev.version)} → ${String(version)}`);
      if (random() < (opts.timeoutRate ?? 0)) {
        counters.otaSilent++;
        emit(s.sn, 'ota: goes silent');
        return;
      }
      const fail = (code: number, msg: string) => {
        counters.otaFailed++;
        emit(s.sn, `ota failed: ${msg}`);
        progress(taskId, version, 'failed', { result_code: code, result_msg: msg });
      };
      progress(taskId, version, 'downloading', { percent: 0 });
      if (opts.download !== false && typeof fileUrl === 'string' && /^https?:\/\//.test(fileUrl)) {
        const sha256 = createHash('sha256');
        const md5 = createHash('md5');
        let bytes = 0;
        try {
          const res = await fetch(fileUrl);
          if (res.status === 404) return fail(-2, 'file not found');
          if (!res.ok || !res.body) return fail(-1, `download failed: HTTP ${res.status}`);
          const total = Number(res.headers.get('content-length') ?? cmd.file_size ?? 0);
          let reported = 0;
          for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
            sha256.update(chunk);
            md5.update(chunk);
            bytes += chunk.length;
            counters.bytesDownloaded += chunk.length;
            const percent = total > 0 ? Math.min(100, Math.floor((bytes / total) * 4) * 25) : 0;
            if (percent > reported && percent < 100) {
              reported = percent;
              progress(taskId, version, 'downloading', { percent });
            }
          }
        } catch (e) {
          return fail(-1, `download failed: ${(e as Error).message}`);
        }
        progress(taskId, version, 'downloading', { percent: 100 });
        progress(taskId, version, 'downloaded');
        const wantSha = typeof cmd.sha256 === 'string' ? cmd.sha256.toLowerCase() : undefined;
        const wantMd5 = typeof cmd.md5sum === 'string' ? cmd.md5sum.toLowerCase() : undefined;
        if ((wantSha && sha256.digest('hex') !== wantSha) || (!wantSha && wantMd5 && md5.digest('hex') !== wantMd5)) return fail(-4, 'checksum mismatch');
        if (typeof cmd.file_size === 'number' && cmd.file_size !== bytes) return fail(-4, 'size mismatch');
      } else {
        for (const percent of [25, 50, 75, 100]) {
          await step();
          progress(taskId, version, 'downloading', { percent });
        }
        progress(taskId, version, 'downloaded');
      }
      await step();
      progress(taskId, version, 'verified');
      await step();
      progress(taskId, version, 'installing');
      await step();
      if (random() < (opts.failRate ?? 0)) return fail(-5, 'update failed');
      dev.version = String(version);
      counters.otaSucceeded++;
      progress(taskId, version, 'succeeded');
      emit(s.sn, `ota succeeded: ${dev.version}`);
      send('ota', 'report_version', { version: dev.version });
    }

    function action(cmd: Record<string, unknown>): void {
      const actionId = typeof cmd.actionId === 'string' ? cmd.actionId : '';
      const clientToken = typeof cmd.clientToken === 'string' ? cmd.clientToken : token();
      counters.actions++;
      emit(s.sn, `action ${actionId}`);
      const status = () => ({ version: dev.version, enabled: dev.enabled, bound: dev.bound, lock_state: dev.lockState, battery: dev.battery });
      let reply: { code: number; result: Record<string, unknown> };
      switch (actionId) {
        case 'disable': dev.enabled = false; reply = { code: 0, result: { enabled: false } }; break;
        case 'enable': dev.enabled = true; reply = { code: 0, result: { enabled: true } }; break;
        case 'unbind': dev.bound = false; reply = { code: 0, result: { bound: false } }; break;
        case 'factory_reset': dev.bound = false; dev.enabled = true; dev.lockState = 1; reply = { code: 0, result: {} }; break;
        case 'get_status': reply = { code: 0, result: status() }; break;
        default: reply = { code: -1, result: { msg: `unsupported action ${actionId}` } };
      }
      send('action', 'action_reply', { actionId, ...reply }, clientToken);
    }

    function control(cmd: Record<string, unknown>): void {
      const params = typeof cmd.params === 'object' && cmd.params ? (cmd.params as Record<string, unknown>) : {};
      if (typeof params.lock_state === 'number') dev.lockState = params.lock_state;
      send('property', 'control_reply', { code: 0 }, typeof cmd.clientToken === 'string' ? cmd.clientToken : token());
    }

    client.on('message', (t, payload) => {
      counters.commands++;
      const parsed = parseTopic(s.topicRoot, t);
      let cmd: Record<string, unknown>;
      try {
        cmd = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
      } catch {
        counters.errors++;
        return;
      }
      if (!parsed || parsed.direction !== 'down') return;
      if (parsed.kind === 'ota' && cmd.type === 'update_firmware') {
        void ota(cmd).catch(() => counters.errors++);
      } else if (parsed.kind === 'action' && cmd.method === 'action') action(cmd);
      else if (parsed.kind === 'property' && cmd.method === 'control') control(cmd);
      else if (parsed.kind === 'event' && cmd.method === 'event_reply' && typeof cmd.clientToken === 'string') {
        awaiting.get(cmd.clientToken)?.();
        awaiting.delete(cmd.clientToken);
      }
    });

    return new Promise<void>((settled) => {
      let first = true;
      const done = () => {
        if (first) {
          first = false;
          settled();
        }
      };
      client.on('connect', () => {
        dev.connected = true;
        counters.connected++;
        emit(s.sn, 'connected');
        client.subscribe(deviceDownFilter(s.topicRoot, s.cloudProductId, s.deviceName), { qos: 1 }, (err, granted) => {
          if (err || granted?.some((g) => g.qos >= 0x80)) counters.errors++;
          send('status', 'online', {}, session);
          send('property', 'report_info', { version: dev.version, mac: macOf(s.sn), imei: imeiOf(s.sn) });
          send('property', 'report', { lock_state: dev.lockState, battery: dev.battery, rssi: -40 - Math.floor(random() * 50) });
          const at = opts.location?.(s.sn);
          if (at) send('location', 'report', { ...at });
          done();
        });
      });
      client.on('close', () => {
        // the next connection (mqtt.js reconnects with these options) is a new session with its own will
        session = token();
        client.options.will = will();
        if (dev.connected) {
          dev.connected = false;
          counters.connected--;
          counters.disconnects++;
        }
      });
      client.on('error', (err) => {
        const code = (err as { code?: number }).code;
        if (code === 4 || code === 5) {
          counters.refused++;
          emit(s.sn, `refused (CONNACK ${code})`);
          client.end(true);
          done();
        } else counters.errors++;
      });
      if ((opts.intervalMs ?? 0) > 0) {
        timers.push(setInterval(() => {
          dev.battery = Math.max(1, dev.battery - (random() < 0.05 ? 1 : 0));
          send('property', 'report', { lock_state: dev.lockState, battery: dev.battery });
        }, opts.intervalMs));
      }
    });
  }

  return {
    counters,
    devices,
    device: (sn) => devices.find((d) => d.session.sn === sn),
    event: (sn, params) => posters.get(sn)?.(params) ?? Promise.resolve(false),
    locate: (sn, report) => locators.get(sn)?.(report) ?? false,
    async start() {
      const spread = opts.connectSpreadMs ?? Math.min(10_000, devices.length * 5);
      const gap = devices.length > 1 ? spread / devices.length : 0;
      const all: Array<Promise<void>> = [];
      for (const dev of devices) {
        if (stopped) break;
        all.push(play(dev));
        if (gap >= 1) await sleep(gap);
      }
      await Promise.all(all);
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await Promise.all(devices.map(async (dev) => {
        const client = clients.get(dev.session.sn);
        if (!client) return;
        if (client.connected) {
          const s = dev.session;
          const t = upTopic(s.topicRoot, 'status', s.cloudProductId, s.deviceName);
          const session = sessions.get(s.sn)?.() ?? `${run}-bye`;
          const env = signUplink(Buffer.from(s.sessionKey, 'hex'), s.username, t, { method: 'offline', clientToken: session, timestamp: Date.now(), params: {} });
          await client.publishAsync(t, JSON.stringify(env), { qos: 1 }).catch(() => undefined);
        }
        await client.endAsync(true).catch(() => undefined);
      }));
    },
  };
}

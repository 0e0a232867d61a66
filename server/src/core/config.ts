import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { type OutboundAllowList, parseAllowList } from './outbound.js';

export interface Config {
  port: number;
  host: string;
  /** folder for the embedded database, secrets and uploaded files */
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database in dataDir/pglite is used */
  databaseUrl?: string;
  redisUrl?: string;
  /** key prefix in Redis, so several deployments (or test runs) can share one server */
  redisPrefix: string;
  /** key that signs access tokens (HS256) */
  jwtSecret: string;
  /** key for secrets at rest (AES-256-GCM), 32 bytes */
  encryptionKey: Buffer;
  timeZone: string;
  env: 'development' | 'production' | 'test';
  /** folder of the built console served at / (absent: API only) */
  webDir?: string;
  /**
   * the address devices and browsers reach this server at (PUBLIC_URL, default http://127.0.0.1:PORT): firmware
   * download links sent to devices are made from it
   */
  publicUrl: string;
  logLevel: string;
  /** where the request log goes (default stdout); tests read it */
  logStream?: { write(line: string): void };
  /** worker id of the snowflake id generator (0–1023) the operator chose (WORKER_ID); absent: leased from the database */
  workerId?: number;
  /** the bearer token a Prometheus scraper sends for `/metrics` (METRICS_TOKEN, ≥ 16 characters); absent: no metrics */
  metricsToken?: string;
  /**
   * at SIGTERM: readiness fails at once, the listener closes after `drainMs` (the proxy's time to notice), and
   * in-flight requests, imports and background work get until `graceMs` in all
   */
  shutdown: { drainMs: number; graceMs: number };
  /** how long a shared dependency (database, Redis, broker) may fail before `/readyz` says not ready (READINESS_GRACE_MS) */
  readinessGraceMs: number;
  /** trust X-Forwarded-For from a proxy in front */
  trustProxy: boolean;
  /** list totals: exact up to `exact` rows, estimated above; substring matches up to `textMatch` from the trigram index */
  listCount: { exact: number; textMatch: number };
  /** console switches served by `GET /api/app/pub/console-config` (spec 9: captcha off, switch off, tenant on) */
  console: { switchMode: boolean; captchaMode: boolean; tenantMode: boolean; defaultTenantId: string; regionAlarmMs: number };
  /**
   * uploads: each tenant's storage quota in bytes (live attachments, 0 = unlimited); per user at most
   * `userFiles` files and `userBytes` bytes per `userWindowSeconds`
   */
  uploads: { tenantQuotaBytes: number; userFiles: number; userBytes: number; userWindowSeconds: number };
  /**
   * load limits: a request's statements are cancelled after `statementTimeoutMs` (0 = never; PostgreSQL
   * only, answered as "search too broad"); a request's transaction still open after `transactionTimeoutMs` is
   * rolled back and its connection freed (both databases; 0 = never); searches no index can serve run at most
   * `heavyQueries` at a time, so they never take every connection from the cheap requests
   */
  limits: { statementTimeoutMs: number; transactionTimeoutMs: number; heavyQueries: number; publicPerMinute: number };
  /**
   * a workflow step that has not reached a wait state after `stepMaxActivities` activities or `stepMaxMs` is
   * stopped, rolled back, and its instance marked as an incident (FLOW_STEP_MAX_ACTIVITIES, FLOW_STEP_MAX_MS)
   */
  flow: { stepMaxActivities: number; stepMaxMs: number };
  /**
   * SMS providers' API addresses when not their public ones (a VPC endpoint, a proxy, a test server):
   * `https://host[:port]` or `http://…` (SMS_ALIYUN_ENDPOINT, SMS_TENCENT_ENDPOINT)
   */
  smsEndpoints: { aliyun?: string; tencent?: string };
  /**
   * the payment providers' addresses (WECHATPAY_BASE_URL, ALIPAY_GATEWAY; the providers' own when unset): the
   * server's setting, never a tenant's, so no tenant can make the server call elsewhere
   */
  paymentEndpoints: { wechat?: string; alipay?: string };
  /**
   * internal hosts that addresses given by tenants (object storage endpoints) may reach all the same
   * (OUTBOUND_ALLOW_HOSTS: names, `*.suffix`, addresses, CIDR ranges); everything else internal is refused
   */
  outboundAllow: OutboundAllowList;
  /**
   * the IoT clouds' API credentials (`sync-product-info`): never stored in the database nor answered.
   * TENCENT_IOT_SECRET_ID / _SECRET_KEY / _REGION / _PROJECT_ID / _ENDPOINT and ALIBABA_IOT_ACCESS_KEY_ID /
   * _ACCESS_KEY_SECRET / _REGION / _INSTANCE_ID / _ENDPOINT
   */
  /**
   * where firmware lives (FIRMWARE_CLOUD): `own`, this server's storage (devices download it from here), or
   * `tencent`, Tencent IoT Explorer (its firmware API, with the TENCENT_IOT_* credentials)
   */
  firmwareCloud: 'own' | 'tencent';
  iotClouds: {
    tencent: { secretId?: string; secretKey?: string; region: string; projectId?: string; endpoint?: string };
    alibaba: { accessKeyId?: string; accessKeySecret?: string; region: string; instanceId?: string; endpoint?: string };
  };
  /**
   * the device gateway (docs/device-protocol.md): MQTT_URL uses that broker (mqtt.js, shared subscription);
   * otherwise an embedded broker listens on MQTT_HOST:MQTT_PORT (0 = any free port, `off` = no gateway).
   * MQTT_PUBLIC_URL is the address handed to devices (simulator sessions) when it differs from the default.
   */
  /** the device gateway; `portChosen`: MQTT_PORT was set (a taken default port falls back to a free one) */
  mqtt: {
    url?: string; port: number | 'off'; portChosen: boolean; host: string; username?: string; password?: string; topicRoot: string; publicUrl?: string;
    /** the embedded broker's bounds: open connections in total and per address, and the wait for a CONNECT */
    maxConnections: number; maxConnectionsPerAddress: number; connectTimeoutMs: number;
  };
  /**
   * `simulator/sessions` hands out device sessions (DEVICE_SIMULATOR): on by default in test and development and on
   * the embedded database (the one-machine install `npm start` makes, where `npm run simulate` plays devices); off by
   * default for a deployment on PostgreSQL (DATABASE_URL) in production
   */
  deviceSimulator: boolean;
}

interface Secrets {
  jwtSecret: string;
  encryptionKey: string;
}

/**
 * Secrets come from the environment (JWT_SECRET, ENCRYPTION_KEY as 64 hex chars). When absent they are
 * generated once and kept in dataDir/secrets.json (mode 0600), so an embedded install needs no set-up and
 * tokens survive restarts. Several instances behind a load balancer must share them through the environment.
 */
function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv): Secrets {
  const file = join(dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>;
  const secrets: Secrets = {
    jwtSecret: env.JWT_SECRET ?? stored.jwtSecret ?? randomBytes(48).toString('base64url'),
    encryptionKey: env.ENCRYPTION_KEY ?? stored.encryptionKey ?? randomBytes(32).toString('hex'),
  };
  if (!env.JWT_SECRET || !env.ENCRYPTION_KEY) {
    if (stored.jwtSecret !== secrets.jwtSecret || stored.encryptionKey !== secrets.encryptionKey) {
      writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    }
  }
  return secrets;
}

function flag(raw: string | undefined, fallback: boolean, name: string): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${name} must be true or false, got ${raw}`);
}

function positiveInt(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, got ${raw}`);
  return n;
}

function wholeNumber(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number (0 or more), got ${raw}`);
  return n;
}

function firmwareCloud(raw: string | undefined): 'own' | 'tencent' {
  const value = (raw || 'own').trim().toLowerCase();
  if (value !== 'own' && value !== 'tencent') throw new Error(`FIRMWARE_CLOUD must be own or tencent, got ${raw}`);
  return value;
}

function publicUrl(raw: string | undefined, port: number): string {
  if (raw === undefined || raw === '') return `http://127.0.0.1:${port}`;
  if (!/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(raw)) throw new Error(`PUBLIC_URL must be an http(s) address, got ${raw}`);
  return raw.replace(/\/+$/, '');
}

function mqttConfig(env: NodeJS.ProcessEnv, nodeEnv: Config['env']): Config['mqtt'] {
  const url = env.MQTT_URL || undefined;
  if (url && !/^(mqtts?|wss?|tcp|ssl):\/\/[^\s]+$/.test(url)) throw new Error("MQTT_URL must be a broker address like mqtt://host:1883 (mqtt, mqtts, ws, wss)");
  const publicUrl = env.MQTT_PUBLIC_URL || undefined;
  if (publicUrl && !/^(mqtts?|wss?|tcp|ssl):\/\/[^\s]+$/.test(publicUrl)) throw new Error(`MQTT_PUBLIC_URL must be a broker address like mqtt://host:1883, got ${publicUrl}`);
  // tests start no gateway unless they ask for one
  const rawPort = env.MQTT_PORT || (nodeEnv === 'test' && !url ? 'off' : '1883');
  let port: number | 'off' = 'off';
  if (rawPort !== 'off') {
    port = Number(rawPort);
    if (!/^\d+$/.test(rawPort) || port > 65535) throw new Error(`MQTT_PORT must be a port number (0 = any free port) or off, got ${rawPort}`);
  }
  const topicRoot = env.MQTT_TOPIC_ROOT || 'dev';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(topicRoot)) throw new Error(`MQTT_TOPIC_ROOT must be 1–64 letters, digits, _ or - (no $ nor /), got ${topicRoot}`);
  return {
    url, port, portChosen: Boolean(env.MQTT_PORT), host: env.MQTT_HOST || '0.0.0.0', username: env.MQTT_USERNAME || undefined, password: env.MQTT_PASSWORD || undefined, topicRoot, publicUrl,
    maxConnections: positiveInt(env.MQTT_MAX_CONNECTIONS, 50_000, 'MQTT_MAX_CONNECTIONS'),
    maxConnectionsPerAddress: positiveInt(env.MQTT_MAX_CONNECTIONS_PER_ADDRESS, 200, 'MQTT_MAX_CONNECTIONS_PER_ADDRESS'),
    connectTimeoutMs: positiveInt(env.MQTT_CONNECT_TIMEOUT_MS, 10_000, 'MQTT_CONNECT_TIMEOUT_MS'),
  };
}

function workerIdOf(text: string): number {
  const id = Number(text);
  if (!Number.isInteger(id) || id < 0 || id > 1023) throw new Error(`WORKER_ID must be a whole number from 0 to 1023, got ${text}`);
  return id;
}

function metricsToken(text: string | undefined): string | undefined {
  if (!text) return undefined;
  if (text.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters');
  return text;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true });
  const secrets = loadSecrets(dataDir, env);
  if (secrets.jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  if (!/^[0-9a-fA-F]{64}$/.test(secrets.encryptionKey)) throw new Error('ENCRYPTION_KEY must be 64 hex characters (32 bytes)');
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const nodeEnv = env.NODE_ENV === 'development' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'production';
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || 'console:',
    jwtSecret: secrets.jwtSecret,
    encryptionKey: Buffer.from(secrets.encryptionKey, 'hex'),
    timeZone: env.TZ_DISPLAY ?? 'Asia/Shanghai',
    env: nodeEnv,
    webDir: env.WEB_DIR,
    publicUrl: publicUrl(env.PUBLIC_URL, port),
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    workerId: env.WORKER_ID ? workerIdOf(env.WORKER_ID) : undefined,
    metricsToken: metricsToken(env.METRICS_TOKEN),
    readinessGraceMs: wholeNumber(env.READINESS_GRACE_MS, 15_000, 'READINESS_GRACE_MS'),
    shutdown: {
      drainMs: wholeNumber(env.SHUTDOWN_DRAIN_MS, 0, 'SHUTDOWN_DRAIN_MS'),
      graceMs: positiveInt(env.SHUTDOWN_GRACE_MS, 20_000, 'SHUTDOWN_GRACE_MS'),
    },
    trustProxy: env.TRUST_PROXY === 'true',
    listCount: {
      exact: positiveInt(env.LIST_EXACT_COUNT_LIMIT, 10_000, 'LIST_EXACT_COUNT_LIMIT'),
      textMatch: positiveInt(env.LIST_TEXT_MATCH_LIMIT, 1_000, 'LIST_TEXT_MATCH_LIMIT'),
    },
    console: {
      switchMode: flag(env.SWITCH_MODE, false, 'SWITCH_MODE'),
      captchaMode: flag(env.CAPTCHA_MODE, false, 'CAPTCHA_MODE'),
      tenantMode: flag(env.TENANT_MODE, true, 'TENANT_MODE'),
      defaultTenantId: env.DEFAULT_TENANT_ID ?? '000000',
      regionAlarmMs: positiveInt(env.REGION_ALARM_MS, 180_000, 'REGION_ALARM_MS'),
    },
    uploads: {
      tenantQuotaBytes: wholeNumber(env.TENANT_STORAGE_QUOTA_MB, 2048, 'TENANT_STORAGE_QUOTA_MB') * 1024 * 1024,
      userFiles: positiveInt(env.UPLOAD_RATE_FILES, 30, 'UPLOAD_RATE_FILES'),
      userBytes: positiveInt(env.UPLOAD_RATE_MB, 200, 'UPLOAD_RATE_MB') * 1024 * 1024,
      userWindowSeconds: 10 * 60,
    },
    limits: {
      statementTimeoutMs: wholeNumber(env.STATEMENT_TIMEOUT_MS, 3000, 'STATEMENT_TIMEOUT_MS'),
      transactionTimeoutMs: wholeNumber(env.TRANSACTION_TIMEOUT_MS, 10_000, 'TRANSACTION_TIMEOUT_MS'),
      heavyQueries: positiveInt(env.HEAVY_QUERY_CONCURRENCY, Math.max(1, Math.floor(availableParallelism() / 2)), 'HEAVY_QUERY_CONCURRENCY'),
      publicPerMinute: positiveInt(env.PUBLIC_RATE_PER_MINUTE, 600, 'PUBLIC_RATE_PER_MINUTE'),
    },
    flow: {
      stepMaxActivities: positiveInt(env.FLOW_STEP_MAX_ACTIVITIES, 500, 'FLOW_STEP_MAX_ACTIVITIES'),
      stepMaxMs: positiveInt(env.FLOW_STEP_MAX_MS, 5000, 'FLOW_STEP_MAX_MS'),
    },
    smsEndpoints: { aliyun: env.SMS_ALIYUN_ENDPOINT || undefined, tencent: env.SMS_TENCENT_ENDPOINT || undefined },
    paymentEndpoints: { wechat: env.WECHATPAY_BASE_URL || undefined, alipay: env.ALIPAY_GATEWAY || undefined },
    outboundAllow: parseAllowList(env.OUTBOUND_ALLOW_HOSTS),
    firmwareCloud: firmwareCloud(env.FIRMWARE_CLOUD),
    iotClouds: {
      tencent: {
        secretId: env.TENCENT_IOT_SECRET_ID || undefined, secretKey: env.TENCENT_IOT_SECRET_KEY || undefined,
        region: env.TENCENT_IOT_REGION || 'ap-guangzhou', projectId: env.TENCENT_IOT_PROJECT_ID || undefined, endpoint: env.TENCENT_IOT_ENDPOINT || undefined,
      },
      alibaba: {
        accessKeyId: env.ALIBABA_IOT_ACCESS_KEY_ID || undefined, accessKeySecret: env.ALIBABA_IOT_ACCESS_KEY_SECRET || undefined,
        region: env.ALIBABA_IOT_REGION || 'cn-shanghai', instanceId: env.ALIBABA_IOT_INSTANCE_ID || undefined, endpoint: env.ALIBABA_IOT_ENDPOINT || undefined,
      },
    },
    mqtt: mqttConfig(env, nodeEnv),
    deviceSimulator: flag(env.DEVICE_SIMULATOR, nodeEnv !== 'production' || !env.DATABASE_URL, 'DEVICE_SIMULATOR'),
    ...overrides,
  };
}

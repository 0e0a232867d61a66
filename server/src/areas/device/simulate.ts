/**
 * The fleet simulator: `npm run simulate -- --batch B2401 --devices 100 --interval 30 [--fail-rate 0.1]
 * [--timeout-rate 0.05] [--speed 5] [--no-download] [--mqtt-url mqtt://host:1883]`, or `--sns SN1,SN2`.
 * Signs in to the console as a platform administrator (BASE, SIM_TENANT, SIM_USER, SIM_PASSWORD), fetches the
 * devices' sessions (the server must have DEVICE_SIMULATOR on) and plays each device over MQTT until Ctrl-C.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createFleet, type FleetSession } from './gateway/fleet.js';

const CLIENT = Buffer.from('saber:saber_secret').toString('base64');

function usage(message?: string): never {
  if (message) console.error(message);
  console.error('usage: npm run simulate -- (--sns SN1,SN2 | --batch BATCH_NO) [--devices N] [--interval SECONDS] [--fail-rate 0.1] '
    + '[--timeout-rate 0.05] [--speed 1] [--no-download] [--mqtt-url URL] [--quiet]\n'
    + 'env: BASE (http://127.0.0.1:8080), SIM_TENANT (000000), SIM_USER (admin), SIM_PASSWORD (admin)');
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    sns: { type: 'string' }, batch: { type: 'string' }, devices: { type: 'string' }, interval: { type: 'string', default: '30' },
    'fail-rate': { type: 'string', default: '0' }, 'timeout-rate': { type: 'string', default: '0' }, speed: { type: 'string', default: '1' },
    'no-download': { type: 'boolean', default: false }, 'mqtt-url': { type: 'string' }, quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) usage();
if (!values.sns && !values.batch && !values.devices) usage('give --devices N, --sns or --batch');
const num = (name: string, raw: string | undefined, min: number, max: number): number => {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) usage(`--${name} must be a number from ${min} to ${max}`);
  return n;
};
const devicesWanted = values.devices === undefined ? Infinity : num('devices', values.devices, 1, 1_000_000);
const intervalS = num('interval', values.interval, 0, 86_400);
const failRate = num('fail-rate', values['fail-rate'], 0, 1);
const timeoutRate = num('timeout-rate', values['timeout-rate'], 0, 1);
const speed = num('speed', values.speed, 0.01, 1000);

const base = (process.env.BASE ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const tenantId = process.env.SIM_TENANT ?? '000000';

async function signIn(): Promise<string> {
  const query = new URLSearchParams({
    grant_type: 'password', tenantId, username: process.env.SIM_USER ?? 'admin',
    password: createHash('md5').update(process.env.SIM_PASSWORD ?? 'admin').digest('hex'), scope: 'all', type: 'account',
  });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${query}`, { method: 'POST', headers: { authorization: `Basic ${CLIENT}`, 'tenant-id': tenantId } });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string; error_description?: string; msg?: string };
  if (!res.ok || !body.access_token) throw new Error(`sign-in at ${base} failed (${res.status}): ${body.error_description ?? body.msg ?? ''}`);
  return body.access_token;
}

async function sessions(token: string): Promise<{ sessions: FleetSession[]; unknown: string[] }> {
  const res = await fetch(`${base}/api/omc-device/simulator/sessions`, {
    method: 'POST',
    headers: { authorization: `Basic ${CLIENT}`, 'blade-auth': `bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'en' },
    // --devices alone: the first N devices with a live certificate
    body: JSON.stringify({ ...(values.sns ? { sns: values.sns } : {}), ...(values.batch ? { batchNo: values.batch } : {}), ...(!values.sns && !values.batch ? { count: devicesWanted } : {}) }),
  });
  const body = (await res.json().catch(() => ({}))) as { data?: { sessions: FleetSession[]; unknown: string[] }; msg?: string };
  if (!res.ok || !body.data) throw new Error(`simulator sessions refused (${res.status}): ${body.msg ?? ''}`);
  return body.data;
}

try {
  const token = await signIn();
  const answer = await sessions(token);
  if (answer.unknown.length) console.log(`not simulated (no device with a live certificate): ${answer.unknown.slice(0, 20).join(', ')}${answer.unknown.length > 20 ? ` … (${answer.unknown.length})` : ''}`);
  const chosen = answer.sessions.slice(0, devicesWanted);
  if (!chosen.length) {
    console.error('no device to simulate');
    process.exit(1);
  }
  const url = values['mqtt-url'] ?? chosen[0]!.mqttUrl;
  console.log(`simulating ${chosen.length} device(s) on ${url ?? '(no broker: is the gateway off?)'}`);
  for (const s of chosen) console.log(`  ${s.sn}  ${s.cloudProductId}/${s.deviceName}`);
  const fleet = createFleet({
    sessions: chosen, mqttUrl: values['mqtt-url'], intervalMs: intervalS * 1000, failRate, timeoutRate, speed, download: !values['no-download'],
    onEvent: values.quiet ? undefined : (sn, e) => console.log(`${new Date().toISOString()} ${sn} ${e}`),
  });
  const summary = () => {
    const c = fleet.counters;
    console.log(`[${new Date().toISOString()}] connected ${c.connected}/${chosen.length} refused ${c.refused} published ${c.published} commands ${c.commands} `
      + `ota started ${c.otaStarted} ok ${c.otaSucceeded} failed ${c.otaFailed} silent ${c.otaSilent} actions ${c.actions} `
      + `downloaded ${(c.bytesDownloaded / 1048576).toFixed(1)} MB errors ${c.errors}`);
  };
  const timer = setInterval(summary, 5_000);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    console.log('stopping…');
    await fleet.stop();
    summary();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await fleet.start();
  summary();
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}

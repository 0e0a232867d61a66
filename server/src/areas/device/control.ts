import { type Lang, type MessageKey, msg } from '@console/contract';
import { deviceControlResource, deviceValuesText } from '@console/contract/areas/device/index';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext, AuthUser } from '../../core/context.js';
import { inList } from '../../core/db/bulk.js';
import { inTenant, rowsAffected } from '../../core/db/index.js';
import type { Executor } from '../../core/db/index.js';
import { fieldError } from '../../core/errors.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { cert, factoryDevice, ownedDevices } from '../production/index.js';
import type { Uplink } from './gateway/types.js';
import { GATEWAY } from './services.js';
import { deviceControl } from './tables.js';

type Row = Record<string, unknown>;

/** The command word a device receives for each control action (docs/device-protocol.md). */
const COMMANDS: Readonly<Record<string, string>> = { disable: 'disable', enable: 'enable', unbind: 'unbind', factory_reset: 'factory_reset', lock_firmware: 'lock_firmware' };

/** The devices the caller's tenant owns and their IoT identities, by SN. */
async function identities(tx: Executor, user: AuthUser, sns: readonly string[]) {
  if (sns.length === 0) return new Map<string, { cloudProductId: string; deviceName: string } | null>();
  const scope = ownedDevices(user);
  const rows = await tx.select({ sn: factoryDevice.sn, cloudProductId: cert.cloudProductId, deviceName: cert.deviceName })
    .from(factoryDevice).leftJoin(cert, and(eq(cert.id, factoryDevice.certificateId), eq(cert.isDeleted, 0)))
    .where(and(inList(factoryDevice.sn, sns), ...(scope ? [scope] : [])));
  return new Map(rows.map((r) => [r.sn, r.cloudProductId && r.deviceName ? { cloudProductId: r.cloudProductId, deviceName: r.deviceName } : null]));
}

/** rows whose sends are recorded in one statement */
const SEND_CHUNK = 1000;

/**
 * Sends the commands of these control rows to their devices (after the rows committed); each row keeps the
 * command's client token, so the device's `action_reply` (on any instance) finds it. One lookup and one write
 * per chunk of rows, whatever their number (an import of many SNs).
 */
async function sendCommands(ctx: AppContext, user: AuthUser, rows: readonly Row[]): Promise<{ sent: number; offline: number }> {
  const gw = ctx.services.find(GATEWAY);
  let sent = 0;
  for (let at = 0; at < rows.length; at += SEND_CHUNK) {
    const chunk = rows.slice(at, at + SEND_CHUNK);
    const ids = await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) => identities(tx, user, chunk.map((r) => String(r.deviceSn))));
    const outcomes = await Promise.all(chunk.map(async (row) => {
      const device = ids.get(String(row.deviceSn));
      const token = device && gw && gw.mode !== 'off'
        ? await gw.send(device, 'action', { method: 'action', actionId: COMMANDS[String(row.action)] ?? 'get_status', params: { reason: row.reason ?? '' } }).catch(() => false as const)
        : false;
      return { id: String(row.id), token: token || null, result: token ? null : device ? SERVER_NOTES.gatewayOff : SERVER_NOTES.noCredentials };
    }));
    sent += outcomes.filter((o) => o.token).length;
    await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) => tx.execute(sql`
      update ymy_device_control c set client_token = coalesce(r.token, c.client_token), result = coalesce(r.result, c.result), sync_time = now()
      from json_to_recordset(${JSON.stringify(outcomes)}::json) as r(id bigint, token text, result text)
      where c.tenant_id = ${user.tenantId} and c.id = r.id`));
  }
  return { sent, offline: rows.length - sent };
}

export const deviceControlHooks = (ctx: AppContext): ResourceHooks => ({
  async beforeSave(tx, values, c) {
    for (const name of ['state', 'result', 'syncTime', 'clientToken']) delete values[name];
    if (c.mode !== 'create') return;
    const sn = String(values.deviceSn);
    if (!c.checked && !(await identities(tx, c.user, [sn])).has(sn)) throw fieldError('deviceUnknown', c.lang, 'deviceSn', { sn });
    values.state = 'pending';
  },
  async afterSave(_tx, saved, c) {
    if (c.mode === 'create') c.afterCommitWith('device-control:send', saved, (rows) => sendCommands(ctx, c.user, rows).then(() => undefined));
  },
  async shown(_tx, rows, _user, lang) {
    for (const row of rows) if ('result' in row) row.result = resultText(row.result, lang);
  },
  async checkRows(tx, rows, lang, user) {
    // an imported SN list: every SN must be a device the importer sees (the import runs as them)
    const known = await identities(tx, user, [...new Set(rows.map((r) => String(r.deviceSn ?? '')))]);
    return rows.map((r) => (known.has(String(r.deviceSn)) ? undefined : { deviceSn: msg('deviceUnknown', lang, { sn: String(r.deviceSn) }) }));
  },
});

/** What a `get_status` answer says of a control action: whether the device is as the action left it. */
function statusMatches(action: string, status: Record<string, unknown>): boolean | undefined {
  if (action === 'disable') return status.enabled === false;
  if (action === 'enable') return status.enabled === true;
  if (action === 'unbind' || action === 'factory_reset') return status.bound === false;
  return undefined;
}

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? '')).slice(0, 255);

/** What the server itself notes in a command's `result` (stored as these words, shown in the reader's language). */
const SERVER_NOTES = { gatewayOff: 'the device gateway is not running', noCredentials: 'the device has no IoT credentials', done: 'ok' } as const;
const NOTE_MESSAGES: Readonly<Record<string, MessageKey>> = {
  [SERVER_NOTES.gatewayOff]: 'controlGatewayOff', [SERVER_NOTES.noCredentials]: 'controlNoCredentials', [SERVER_NOTES.done]: 'controlDone',
};

/**
 * A command's `result` for people: the server's notes translated, a device's answer (a JSON object: the state
 * `get_status` reports, `{enabled:false}`) as labelled values; a device's own words as they are.
 */
export function resultText(result: unknown, lang: Lang): unknown {
  if (typeof result !== 'string') return result;
  const note = NOTE_MESSAGES[result];
  if (note) return msg(note, lang);
  if (!result.startsWith('{')) return result;
  try {
    const parsed = JSON.parse(result) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? deviceValuesText(parsed as Record<string, unknown>, lang) || msg('controlDone', lang) : result;
  } catch {
    return result; // cut at 255 characters: no longer JSON
  }
}

/**
 * Devices' answers to control commands (`action_reply`, its client token the command's), on the rows that sent
 * them: `code` 0 applied, another code failed. An answer to `get_status` (sync-status) decides by the state the
 * device reports: applied when it is as the row's action left it.
 */
export async function foldControlReplies(tx: Executor, replies: readonly Uplink[]): Promise<number> {
  const answers = replies.filter((u) => u.method === 'action_reply' && u.clientToken);
  if (answers.length === 0) return 0;
  const rows = await tx.select({ id: deviceControl.id, action: deviceControl.action, token: deviceControl.clientToken, sn: deviceControl.deviceSn }).from(deviceControl)
    .where(sql`${deviceControl.clientToken} = any(${`{${answers.map((u) => u.clientToken.replace(/[{},"\\]/g, '')).join(',')}}`}::text[])`);
  const byToken = new Map(rows.map((r) => [`${r.sn}|${r.token}`, r]));
  const records = answers.flatMap((u) => {
    const row = byToken.get(`${u.device.sn}|${u.clientToken}`);
    if (!row) return [];
    const code = Number(u.params.code ?? 0);
    const result = (u.params.result && typeof u.params.result === 'object' ? u.params.result : {}) as Record<string, unknown>;
    const matches = u.params.actionId === 'get_status' && code === 0 ? statusMatches(row.action, result) : undefined;
    const ok = matches ?? code === 0;
    return [{ id: row.id, state: ok ? 'applied' : 'failed', result: code === 0 ? text(u.params.result ?? SERVER_NOTES.done) : text(result.msg ?? u.params.result ?? { code }), at: new Date(u.timestamp).toISOString() }];
  });
  if (records.length === 0) return 0;
  const res = await tx.execute(sql`
    update ymy_device_control c set state = r.state, result = r.result, sync_time = r.at
    from json_to_recordset(${JSON.stringify(records)}::json) as r(id bigint, state text, result text, at timestamptz)
    where c.id = r.id`);
  return rowsAffected(res);
}

export function registerControlActions(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, deviceControlResource.actions.syncStatus, async ({ ids }, { tx, user, afterCommit }) => {
    const rows = await tx.select().from(deviceControl).where(and(sql`${deviceControl.id} = any(${`{${ids.join(',')}}`}::bigint[])`, eq(deviceControl.isDeleted, 0)));
    const answer = { sent: 0, offline: 0 };
    // the commands go out once the call's transaction is done (their rows are updated on their own); the answer
    // is written after that
    afterCommit(async () => {
      Object.assign(answer, await sendCommands(ctx, user, rows.map((r) => ({ ...r, action: r.state === 'pending' ? r.action : 'get_status' }))));
    });
    return answer;
  });
}

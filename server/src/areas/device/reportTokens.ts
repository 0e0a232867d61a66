import { sql } from 'drizzle-orm';
import type { Executor } from '../../core/db/index.js';
import type { Uplink } from './gateway/types.js';

/** what a client token was sent with: an OTA report or a face event */
export type ReportKind = 'ota' | 'face';

export const tokenKey = (sn: string, token: string) => `${sn} ${token}`;

/**
 * Claims the client tokens of these uplinks (`ymy_device_report_token`) and answers the keys (`tokenKey`) of those
 * seen for the first time: the others were resent, and are folded and logged once already. In the caller's
 * transaction, so a resend folded on another instance at the same moment waits for it and is then found.
 */
export async function claimReportTokens(tx: Executor, kind: ReportKind, uplinks: readonly Uplink[]): Promise<Set<string>> {
  const pairs = new Map<string, { sn: string; token: string }>();
  for (const u of uplinks) {
    const token = u.clientToken?.slice(0, 64);
    if (token) pairs.set(tokenKey(u.device.sn, token), { sn: u.device.sn, token });
  }
  if (pairs.size === 0) return new Set();
  const claimed = await tx.execute(sql`
    insert into ymy_device_report_token (kind, device_sn, client_token)
    select ${kind}, r.sn, r.token from json_to_recordset(${JSON.stringify([...pairs.values()])}::json) as r(sn text, token text)
    on conflict do nothing returning device_sn, client_token`);
  return new Set((claimed as unknown as { rows: Array<{ device_sn: string; client_token: string }> }).rows.map((r) => tokenKey(r.device_sn, r.client_token)));
}

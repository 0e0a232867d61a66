import { nextId } from '../../core/ids.js';
import { insertRows } from '../../core/db/bulk.js';
import type { Executor } from '../../core/db/index.js';
import type { Uplink } from './gateway/types.js';
import { claimReportTokens, tokenKey } from './reportTokens.js';
import { faceLog } from './tables.js';

const FACE_EVENTS = new Set(['enrol', 'match', 'reject']);
const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null);

/**
 * Device events (`event_post`): face events (`eventId` "face", `params.event` enrol, match or reject) become
 * face log rows, kept once per device and client token however often the device resends them. Answers the
 * events it stored or may drop (unknown kinds), so the gateway can acknowledge every one of them.
 */
export async function foldDeviceEvents(tx: Executor, events: readonly Uplink[]): Promise<number> {
  const faces = events.filter((u) => u.method === 'event_post' && u.params.eventId === 'face' && FACE_EVENTS.has(String(u.params.event)));
  const fresh = await claimReportTokens(tx, 'face', faces);
  const rows = faces
    .filter((u) => !u.clientToken || fresh.delete(tokenKey(u.device.sn, u.clientToken.slice(0, 64))))
    .map((u) => ({
      id: nextId(), deviceSn: u.device.sn, productId: u.device.productId, userId: text(u.params.userId, 64), event: String(u.params.event),
      snapshot: text(u.params.snapshot, 1000), clientToken: u.clientToken ? u.clientToken.slice(0, 64) : null, eventTime: new Date(u.timestamp),
    }));
  if (rows.length) await insertRows(tx, faceLog, rows, 5000);
  return faces.length;
}

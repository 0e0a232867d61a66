import { OTA_FINAL_STATES, type OtaState } from '@console/contract/areas/device/index';

/**
 * The OTA state machine of one device (api.md §7). The server moves a device from `queued` to `notified` (the
 * command is sent) and, on a timeout, back to `queued` for a retry or on to `timed_out`; `cancelled` when its
 * task is cancelled. The device's reports move it forward along
 *
 *   notified → downloading (percent) → downloaded → verified → installing → succeeded
 *
 * A report may skip states forward (a device that reports only "installing" and "succeeded" is fine), and
 * `failed` may follow any state before a final one. Everything else is illegal and refused (and logged): a report
 * for a device not yet notified, a step backwards, a download whose percent goes down, anything after a final
 * state.
 */

const FORWARD: readonly OtaState[] = ['notified', 'downloading', 'downloaded', 'verified', 'installing', 'succeeded'];

/** The states devices report, with the names Tencent's OTA protocol uses for some of them. */
const REPORTED: Readonly<Record<string, OtaState>> = {
  downloading: 'downloading', downloaded: 'downloaded', verified: 'verified', installing: 'installing', succeeded: 'succeeded', failed: 'failed',
  burning: 'installing', done: 'succeeded', fail: 'failed', success: 'succeeded',
};

export function reportedState(raw: unknown): OtaState | undefined {
  return typeof raw === 'string' ? REPORTED[raw.toLowerCase()] : undefined;
}

export function isFinal(state: OtaState): boolean {
  return OTA_FINAL_STATES.includes(state);
}

export type Move = { ok: true; state: OtaState; percent: number } | { ok: false; reason: string };

/** Where a device report takes a device now in `from` at `percent` (0–100). */
export function move(from: OtaState, fromPercent: number, to: OtaState, reportedPercent: number | undefined): Move {
  if (isFinal(from)) return { ok: false, reason: `${from} is final` };
  if (from === 'queued') return { ok: false, reason: 'not notified yet' };
  if (to === 'failed') return { ok: true, state: 'failed', percent: fromPercent };
  const a = FORWARD.indexOf(from);
  const b = FORWARD.indexOf(to);
  if (b < 0) return { ok: false, reason: `${to} is not reported by devices` };
  if (b < a) return { ok: false, reason: `${from} → ${to} goes backwards` };
  const percent = to === 'downloading' ? clampPercent(reportedPercent) : to === 'notified' ? 0 : 100;
  if (b === a) {
    if (to !== 'downloading') return { ok: false, reason: `${to} reported twice` };
    if (percent < fromPercent) return { ok: false, reason: `percent ${fromPercent} → ${percent} goes backwards` };
  }
  return { ok: true, state: to, percent: to === 'downloading' || to === 'notified' ? percent : Math.max(percent, fromPercent) };
}

function clampPercent(p: number | undefined): number {
  if (p === undefined || !Number.isFinite(p)) return 0;
  return Math.min(100, Math.max(0, Math.round(p)));
}

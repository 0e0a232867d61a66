import { type ActionOutput } from '@console/contract';
import { OTA_FINAL_STATES, type otaTaskResource } from '@console/contract/areas/device/index';

export type OtaSummary = ActionOutput<typeof otaTaskResource.actions.summary>;

/** A running task's view refreshes this often; a finished or cancelled one stays as it is. */
export const LIVE_MS = 2000;

/** The progress bar's parts: how many devices ended (any final state) and how many succeeded, in percent. */
export function summaryPercents(s: Pick<OtaSummary, 'total' | 'counts'>): { ended: number; succeeded: number } {
  if (s.total <= 0) return { ended: 0, succeeded: 0 };
  const ended = OTA_FINAL_STATES.reduce((sum, state) => sum + (s.counts[state] ?? 0), 0);
  const pct = (n: number) => Math.min(100, Math.round((n / s.total) * 1000) / 10);
  return { ended: pct(ended), succeeded: pct(s.counts.succeeded ?? 0) };
}

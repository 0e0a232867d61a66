import { describe, expect, it } from 'vitest';
import { summaryPercents } from './otaSummary';

describe('the OTA task view\'s progress bar', () => {
  const counts = { queued: 5, notified: 1, downloading: 0, downloaded: 0, verified: 0, installing: 0, succeeded: 2, failed: 1, timed_out: 0, cancelled: 1 };

  it('counts every final state as ended, and the successes apart', () => {
    expect(summaryPercents({ total: 10, counts })).toEqual({ ended: 40, succeeded: 20 });
  });

  it('is empty for a task without devices', () => {
    expect(summaryPercents({ total: 0, counts: {} })).toEqual({ ended: 0, succeeded: 0 });
  });
});

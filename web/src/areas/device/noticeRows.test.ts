import { describe, expect, it } from 'vitest';
import { mergeNoticeRows, noticeItems } from './noticeRows';

describe('device notice rows', () => {
  const types = [{ dictKey: 'low_battery', dictValue: '低电量' }, { dictKey: 'tamper', dictValue: '防撬报警' }];

  it('lists every notice type, with what the product saved', () => {
    const rows = mergeNoticeRows(types, [{ noticeType: 'tamper', enabled: 1, channels: 'push,sms', template: '门锁 {sn} 被撬' }]);
    expect(rows).toEqual([
      { noticeType: 'low_battery', label: '低电量', enabled: false, channels: [], template: '' },
      { noticeType: 'tamper', label: '防撬报警', enabled: true, channels: ['push', 'sms'], template: '门锁 {sn} 被撬' },
    ]);
  });

  it('keeps a saved type the dictionary no longer names', () => {
    const rows = mergeNoticeRows(types, [{ noticeType: 'old', enabled: 0, channels: 'push', template: null }]);
    expect(rows.map((r) => r.noticeType)).toEqual(['low_battery', 'tamper', 'old']);
  });

  it('saves channels comma-joined and a blank template as none', () => {
    expect(noticeItems([{ noticeType: 'tamper', label: 'x', enabled: true, channels: ['push', 'sms'], template: '  ' }])).toEqual([
      { noticeType: 'tamper', enabled: 1, channels: 'push,sms', template: null },
    ]);
  });
});

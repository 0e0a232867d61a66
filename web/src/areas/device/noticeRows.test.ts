import { describe, expect, it } from 'vitest';
import { mergeNoticeRows, noticeItems, noticesChanged, silentNotice, type NoticeRow } from './noticeRows';

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

describe('a notice draft', () => {
  const saved: NoticeRow[] = [
    { noticeType: 'low_battery', label: '低电量', enabled: false, channels: ['push'], template: '' },
    { noticeType: 'tamper', label: '防撬报警', enabled: true, channels: ['sms'], template: 'x' },
  ];
  it('is changed only in what a save would send (a template of blanks is none)', () => {
    expect(noticesChanged(saved, saved.map((r) => ({ ...r })))).toBe(false);
    expect(noticesChanged(saved, saved.map((r) => (r.noticeType === 'low_battery' ? { ...r, template: '  ' } : r)))).toBe(false);
    expect(noticesChanged(saved, saved.map((r) => (r.noticeType === 'low_battery' ? { ...r, enabled: true } : r)))).toBe(true);
  });
  it('names the first notice switched on without a channel', () => {
    expect(silentNotice(saved)).toBeUndefined();
    expect(silentNotice(saved.map((r) => ({ ...r, enabled: true, channels: [] })))?.label).toBe('低电量');
    expect(silentNotice([{ ...saved[0]!, channels: [] }])).toBeUndefined();
  });
});

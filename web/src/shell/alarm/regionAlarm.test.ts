import { describe, expect, it } from 'vitest';
import { alarmStep, menuHoldsChain, regionAlarmActive } from './regionAlarm';

const node = (code: string, ...children: Array<{ code: string }>) => ({ code, children });
const WITH_WARNINGS = [node('desk'), node('supplier', node('supplier_region', node('area'), node('region_wrong_log')))];

describe('the region alarm', () => {
  it('needs supplier › region › region_wrong_log in the menu, each under the one before', () => {
    expect(menuHoldsChain(WITH_WARNINGS)).toBe(true);
    // BladeX's own menu names the middle level `region`
    expect(menuHoldsChain([node('supplier', node('region', node('region_wrong_log')))])).toBe(true);
    expect(menuHoldsChain([node('supplier', node('supplier_region', node('area')))])).toBe(false);
    expect(menuHoldsChain([node('supplier'), node('supplier_region'), node('region_wrong_log')])).toBe(false);
    expect(menuHoldsChain([node('base', node('region', node('region_wrong_log')))])).toBe(false);
    expect(menuHoldsChain([])).toBe(false);
  });

  it('polls for tenants 541742 and 000000 only', () => {
    expect(regionAlarmActive('541742', WITH_WARNINGS)).toBe(true);
    expect(regionAlarmActive('000000', WITH_WARNINGS)).toBe(true);
    expect(regionAlarmActive('123456', WITH_WARNINGS)).toBe(false);
    expect(regionAlarmActive(undefined, WITH_WARNINGS)).toBe(false);
    expect(regionAlarmActive('541742', [node('desk')])).toBe(false);
  });

  it('counts on the first poll and warns when the total grew since the last', () => {
    expect(alarmStep(undefined, 7)).toEqual({ fresh: 0, last: 7 });
    expect(alarmStep(7, 7)).toEqual({ fresh: 0, last: 7 });
    expect(alarmStep(7, 9)).toEqual({ fresh: 2, last: 9 });
    // warnings handled away (removed) lower the count: the next growth is counted from there
    expect(alarmStep(9, 4)).toEqual({ fresh: 0, last: 4 });
  });
});

import { describe, expect, it } from 'vitest';
import { matchTabs } from './tabSearch';

const tabs = [
  { key: '/wel/index', label: '首页' },
  { key: '/desk/notice', label: '通知公告' },
  { key: '/system/param?x=1', label: 'Parameters' },
];

describe('searching the open tabs', () => {
  it('matches the label or the path, ignoring case and surrounding spaces', () => {
    expect(matchTabs(tabs, '通知').map((t) => t.key)).toEqual(['/desk/notice']);
    expect(matchTabs(tabs, ' PARAM ').map((t) => t.key)).toEqual(['/system/param?x=1']);
    expect(matchTabs(tabs, 'x=1').map((t) => t.key)).toEqual(['/system/param?x=1']);
  });

  it('lists every tab for an empty text and none for an unknown one', () => {
    expect(matchTabs(tabs, '')).toHaveLength(3);
    expect(matchTabs(tabs, 'nothing')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { apiOption, dayLabel, signInsOption, type ChartColors } from './chartOptions';

const colors: ChartColors = {
  primary: '#52D577', error: '#ff4d4f', info: '#1677ff', text: '#000', textSecondary: '#666', border: '#eee', background: '#fff',
};

describe('dashboard chart options', () => {
  it('labels days by month and day', () => {
    expect(dayLabel('2026-03-09')).toBe('03-09');
    expect(dayLabel('odd')).toBe('odd');
  });

  it('draws sign-ins in the theme\'s primary colour', () => {
    const o = signInsOption([{ day: '2026-03-08', count: 2 }, { day: '2026-03-09', count: 5 }], 'Sign-ins', colors);
    expect(o.color).toEqual(['#52D577']);
    expect(o.xAxis).toMatchObject({ data: ['03-08', '03-09'] });
    expect(o.series).toMatchObject([{ type: 'line', name: 'Sign-ins', data: [2, 5] }]);
  });

  it('lines errors up with the calls of the same day', () => {
    const calls = [{ day: '2026-03-08', count: 10 }, { day: '2026-03-09', count: 20 }];
    const o = apiOption(calls, [{ day: '2026-03-09', count: 3 }], { calls: 'Calls', errors: 'Errors' }, colors);
    expect(o.series).toMatchObject([{ type: 'bar', data: [10, 20] }, { type: 'line', data: [0, 3] }]);
    expect(o.color).toEqual(['#1677ff', '#ff4d4f']);
  });
});

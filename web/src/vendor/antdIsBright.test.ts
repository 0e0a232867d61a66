import { AggregationColor } from 'antd/lib/color-picker/color';
import { isBright as antdIsBright } from 'antd/lib/color-picker/components/ColorPresets';
import { describe, expect, it } from 'vitest';
import { isBright } from './antdIsBright';

// The colours antd's Button style asks about (colorBgSolid of the light and dark algorithms, the presets)
// and a spread of others, opaque and translucent, on white and black.
const COLORS = [
  'rgba(0,0,0,0.88)', 'rgba(255,255,255,0.95)', '#000', '#fff', '#52D577', '#1677ff', '#ffeb3b', '#f5222d',
  '#c0c0c0', '#808080', '#bfbfbf', 'rgba(255,255,255,0.3)', 'rgba(0,0,0,0.3)', 'rgba(250,219,20,0.5)', 'transparent',
];

describe('isBright (copy of antd 5 ColorPresets.isBright for the Button style)', () => {
  it.each(COLORS.flatMap((c) => [[c, '#fff'], [c, '#000']]))('%s on %s answers as antd does', (color, bg) => {
    expect(isBright(new AggregationColor(color), bg)).toBe(antdIsBright(new AggregationColor(color), bg));
  });

  it('is not trivially constant', () => {
    expect(isBright(new AggregationColor('#fff'), '#fff')).toBe(true);
    expect(isBright(new AggregationColor('#000'), '#fff')).toBe(false);
  });
});

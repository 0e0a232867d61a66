import { Color as RcColor } from '@rc-component/color-picker';
import type { AggregationColor } from 'antd/es/color-picker/color';

/**
 * antd 5.29's `isBright` (color-picker/components/ColorPresets), for antd's Button style. See
 * vite.config.ts: importing it from its own module would load the colour picker's presets panel and
 * Collapse on every page. Same code as antd's; `antdIsBright.test.ts` holds the two to the same answers.
 */
export const isBright = (value: Pick<AggregationColor, 'toRgb' | 'toRgbString'>, bgColorToken: string): boolean => {
  const { r, g, b, a } = value.toRgb();
  const hsv = new RcColor(value.toRgbString()).onBackground(bgColorToken).toHsv();
  if (a <= 0.5) {
    // Adapted to dark mode
    return hsv.v > 0.5;
  }
  return r * 0.299 + g * 0.587 + b * 0.114 > 192;
};

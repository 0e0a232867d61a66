import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Lang } from '@console/contract';

// Only the parts the dashboard draws: line and bar charts on a grid, with tooltip and legend.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export type ChartOption = echarts.ComposeOption<
  LineSeriesOption | BarSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption
>;

const ECHARTS_LOCALE: Record<Lang, string> = { zh: 'ZH', en: 'EN' };

export interface EChartProps {
  option: ChartOption;
  lang: Lang;
  height: number;
  testId: string;
}

/**
 * One ECharts instance on a canvas. It follows its box (window resizes, the sidebar folding), and is
 * created again when the language changes (ECharts takes its locale at creation only).
 */
export function EChart({ option, lang, height, testId }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const latest = useRef(option);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const instance = echarts.init(el, undefined, { renderer: 'canvas', locale: ECHARTS_LOCALE[lang] });
    instance.setOption(latest.current);
    chart.current = instance;
    // a hidden page (a tab in the background) has no size: keep the last one until it shows again
    const observer = new ResizeObserver(() => {
      if (el.clientWidth > 0 && el.clientHeight > 0) instance.resize();
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [lang]);

  useEffect(() => {
    latest.current = option;
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={box} style={{ width: '100%', height }} data-testid={testId} />;
}

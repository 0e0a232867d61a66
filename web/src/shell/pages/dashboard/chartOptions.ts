import type { DayCount } from '@console/contract';
import type { ChartOption } from './EChart';

/** The antd token colours the charts are drawn with, so they follow the theme. */
export interface ChartColors {
  primary: string;
  error: string;
  info: string;
  text: string;
  textSecondary: string;
  border: string;
  background: string;
}

/** `yyyy-MM-dd` → `MM-dd` for the axis. */
export function dayLabel(day: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day.slice(5) : day;
}

function base(colors: ChartColors, days: string[]): ChartOption {
  return {
    backgroundColor: 'transparent',
    textStyle: { color: colors.text },
    grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      backgroundColor: colors.background,
      borderColor: colors.border,
      textStyle: { color: colors.text },
    },
    legend: { top: 0, textStyle: { color: colors.textSecondary } },
    xAxis: {
      type: 'category',
      data: days.map(dayLabel),
      axisLine: { lineStyle: { color: colors.border } },
      axisLabel: { color: colors.textSecondary },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { color: colors.textSecondary },
      splitLine: { lineStyle: { color: colors.border } },
    },
  };
}

/** Sign-ins per day: a filled line in the primary colour. */
export function signInsOption(series: DayCount[], name: string, colors: ChartColors): ChartOption {
  return {
    ...base(colors, series.map((d) => d.day)),
    color: [colors.primary],
    series: [{ type: 'line', name, smooth: true, areaStyle: { opacity: 0.15 }, data: series.map((d) => d.count) }],
  };
}

/** API calls (bars) and errors (a line in the error colour) per day, on one axis. */
export function apiOption(calls: DayCount[], errors: DayCount[], names: { calls: string; errors: string }, colors: ChartColors): ChartOption {
  const errorsByDay = new Map(errors.map((d) => [d.day, d.count]));
  return {
    ...base(colors, calls.map((d) => d.day)),
    color: [colors.info, colors.error],
    series: [
      { type: 'bar', name: names.calls, barMaxWidth: 24, data: calls.map((d) => d.count) },
      { type: 'line', name: names.errors, data: calls.map((d) => errorsByDay.get(d.day) ?? 0) },
    ],
  };
}

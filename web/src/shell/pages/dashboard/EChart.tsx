import { Suspense } from 'react';
import { lazy } from '../../chunkLoad';
import type { EChartProps } from './EChartCanvas';

export type { ChartOption } from './EChartCanvas';

// ECharts is most of the dashboard's code: the figures show first, each chart when its code has come
const EChartCanvas = lazy(() => import('./EChartCanvas').then((m) => ({ default: m.EChart })));

/** One chart; its box keeps its height while ECharts loads. */
export function EChart(props: EChartProps) {
  return (
    <Suspense fallback={<div style={{ width: '100%', height: props.height }} data-testid={`${props.testId}-loading`} />}>
      <EChartCanvas {...props} />
    </Suspense>
  );
}

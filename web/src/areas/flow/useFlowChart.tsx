import { useCallback, useState, type ReactNode } from 'react';
import { FlowChartDialog } from './FlowChartDialog';

/** whose diagram to show: an instance (with what happened on it) or a bare definition */
export type FlowChartTarget = { processInstanceId: string } | { processDefinitionId: string };

/** The 流程图 dialog of a screen: `show(target)` opens it; render `dialog` once. */
export function useFlowChart(): { show: (target: FlowChartTarget) => void; dialog: ReactNode } {
  const [target, setTarget] = useState<FlowChartTarget | null>(null);
  const show = useCallback((next: FlowChartTarget) => setTarget(next), []);
  const dialog = (
    <FlowChartDialog
      open={target !== null}
      onClose={() => setTarget(null)}
      processInstanceId={target && 'processInstanceId' in target ? target.processInstanceId : undefined}
      processDefinitionId={target && 'processDefinitionId' in target ? target.processDefinitionId : undefined}
    />
  );
  return { show, dialog };
}

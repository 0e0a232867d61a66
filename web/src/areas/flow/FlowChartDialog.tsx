/**
 * 流程图展示: a process definition's diagram, or an instance's with what happened on it.
 *
 * Markers (classes on the element's `g.djs-element[data-element-id]`, drawn by flowChart.css):
 * - `flow-done`: an activity the instance went through (every visit ended);
 * - `flow-running`: an activity waiting now (a visit without endTime);
 * - `flow-taken`: a sequence flow the instance took.
 * Test hooks: `flow-chart` (the dialog), `flow-chart-canvas` (`data-state` loading | ready | failed), `flow-chart-legend`,
 * `flow-chart-error`, `flow-chart-tip` (`data-element-id`: the hovered activity), `flow-chart-history` (the table, rows
 * with `data-element-id`).
 */
import { flowProcessActions, type FlowHistoryItem } from '@console/contract/areas/flow/index';
import { useQuery } from '@tanstack/react-query';
import { Alert, Modal, Popover, Spin, Table, Tag, type TableColumnsType } from 'antd';
import { useEffect, useMemo, useRef, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { addMessages } from '../../i18n/lazy';
import { flowEn, flowZh } from './i18n';
import { testId } from '../../testId';
import type { Canvas, ElementEvent, ElementRegistry, EventBus } from './bpmnTypes';
import { FLOW_MARKER, flowMarkers, formatDuration, outcomeKey, stepLabel, visitsByElement, type FlowMarker } from './flowMarkers';
import './flowChartDialog.css';

addMessages('flow', { zh: flowZh, en: flowEn });

export interface FlowChartDialogProps {
  open: boolean;
  onClose: () => void;
  /** an instance: its definition's diagram with its markers and history */
  processInstanceId?: string;
  /** a definition: the bare diagram (ignored when an instance is given) */
  processDefinitionId?: string;
}

export function FlowChartDialog({ open, onClose, processInstanceId, processDefinitionId }: FlowChartDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onCancel={onClose} footer={null} width={1000} title={t('flow.chart.title')} destroyOnHidden
      styles={{ body: { minHeight: 460 } }}>
      {open && (processInstanceId || processDefinitionId) && (
        <div {...testId('flow-chart')}>
          <FlowChart processInstanceId={processInstanceId} processDefinitionId={processDefinitionId} />
        </div>
      )}
    </Modal>
  );
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function FlowChart({ processInstanceId, processDefinitionId }: { processInstanceId?: string; processDefinitionId?: string }) {
  const { t } = useTranslation();
  const view = useQuery({
    queryKey: ['flow', 'model-view', processInstanceId ?? '', processDefinitionId ?? ''],
    queryFn: ({ signal }) => callAction(flowProcessActions.modelView,
      processInstanceId ? { processInstanceId } : { processDefinitionId: processDefinitionId! }, { silent: true, signal }),
    staleTime: 0,
    retry: false,
  });
  const history = useQuery({
    queryKey: ['flow', 'history-flow-list', processInstanceId ?? ''],
    queryFn: ({ signal }) => callAction(flowProcessActions.historyFlowList, { processInstanceId: processInstanceId! }, { silent: true, signal }),
    enabled: processInstanceId !== undefined,
    staleTime: 0,
    retry: false,
  });
  const markers = useMemo(() => flowMarkers(view.data?.flow ?? []), [view.data]);
  const visits = useMemo(() => visitsByElement(history.data ?? []), [history.data]);
  const [hovered, setHovered] = useState<HoveredElement | null>(null);

  if (view.isError) {
    return <Alert type="error" showIcon message={t('flow.chart.loadFailed', { msg: errorText(view.error) })} {...testId('flow-chart-error')} />;
  }
  const hoveredVisits = hovered ? visits.get(hovered.id) : undefined;
  return (
    <>
      {processInstanceId && <Legend />}
      <div className="flow-chart-stage">
        {view.data ? (
          <BpmnCanvas xml={view.data.xml} markers={markers} onHover={setHovered} />
        ) : (
          <Spin tip={t('flow.chart.loading')}><div className="flow-chart-canvas" {...testId('flow-chart-canvas')} data-state="loading" /></Spin>
        )}
        {hovered && hoveredVisits && (
          <Popover key={hovered.id} open placement="top" title={hoveredVisits[0] ? stepLabel(hoveredVisits[0], (type) => t(`flow.chart.unnamed.${type}`)) : hovered.id}
            content={<VisitsTip id={hovered.id} visits={hoveredVisits} />}>
            <span style={{ position: 'absolute', pointerEvents: 'none', left: hovered.left, top: hovered.top, width: hovered.width, height: hovered.height }} />
          </Popover>
        )}
      </div>
      {processInstanceId && (
        history.isError
          ? <Alert style={{ marginTop: 12 }} type="error" showIcon message={t('flow.chart.loadFailed', { msg: errorText(history.error) })} />
          : <HistoryTable rows={history.data} loading={history.isPending} />
      )}
    </>
  );
}

function Legend() {
  const { t } = useTranslation();
  const items: Array<[FlowMarker, string]> = [
    [FLOW_MARKER.done, t('flow.chart.legendDone')],
    [FLOW_MARKER.running, t('flow.chart.legendRunning')],
    [FLOW_MARKER.taken, t('flow.chart.legendTaken')],
  ];
  return (
    <div className="flow-chart-legend" {...testId('flow-chart-legend')}>
      {items.map(([marker, label]) => (
        <span key={marker} className="flow-chart-legend-item">
          <span className={`flow-chart-swatch ${marker}`} aria-hidden />
          {label}
        </span>
      ))}
    </div>
  );
}

/** where the hovered element is drawn, relative to the stage */
interface HoveredElement {
  id: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

type CanvasState = { state: 'loading' } | { state: 'ready' } | { state: 'failed'; message: string };

/**
 * The diagram, drawn by bpmn-js's NavigatedViewer (its own chunk, loaded on first use) with the markers; reports the
 * element under the pointer (`onHover` must be stable: a state setter). The viewer is made for each diagram and
 * destroyed with it.
 */
function BpmnCanvas({ xml, markers, onHover }: { xml: string; markers: ReadonlyMap<string, FlowMarker>; onHover: (h: HoveredElement | null) => void }) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<CanvasState>({ state: 'loading' });

  useEffect(() => {
    const host = container.current;
    if (!host) return undefined;
    let cancelled = false;
    let destroy = () => {};
    setStatus({ state: 'loading' });
    void (async () => {
      try {
        const { NavigatedViewer } = await import('./bpmnViewer');
        if (cancelled) return;
        const viewer = new NavigatedViewer({ container: host });
        destroy = () => viewer.destroy();
        await viewer.importXML(xml);
        if (cancelled) return;
        const canvas = viewer.get<Canvas>('canvas');
        const registry = viewer.get<ElementRegistry>('elementRegistry');
        for (const [id, marker] of markers) if (registry.get(id)) canvas.addMarker(id, marker);
        canvas.zoom('fit-viewport');
        const events = viewer.get<EventBus>('eventBus');
        events.on<ElementEvent>('element.hover', ({ element }) => {
          const target = element.labelTarget ?? element;
          const gfx = registry.getGraphics(target.id);
          if (!gfx || target.type === 'bpmn:Process' || target.type === 'bpmn:Collaboration') return;
          const box = gfx.getBoundingClientRect();
          const stage = (host.closest('.flow-chart-stage') ?? host).getBoundingClientRect();
          onHover({ id: target.id, left: box.left - stage.left, top: box.top - stage.top, width: box.width, height: box.height });
        });
        events.on('element.out', () => onHover(null));
        events.on('canvas.viewbox.changing', () => onHover(null));
        setStatus({ state: 'ready' });
      } catch (err) {
        if (!cancelled) setStatus({ state: 'failed', message: errorText(err) });
      }
    })();
    return () => {
      cancelled = true;
      onHover(null);
      destroy();
    };
  }, [xml, markers, onHover]);

  return (
    <>
      {status.state === 'failed' && (
        <Alert style={{ marginBottom: 8 }} type="error" showIcon message={t('flow.chart.renderFailed', { msg: status.message })} {...testId('flow-chart-error')} />
      )}
      <Spin spinning={status.state === 'loading'} tip={t('flow.chart.loading')}>
        <div ref={container} className="flow-chart-canvas" {...testId('flow-chart-canvas')} data-state={status.state} />
      </Spin>
    </>
  );
}

function OutcomeTag({ outcome }: { outcome: string | null }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  const key = outcomeKey(outcome);
  const color = key === 'pass' ? 'success' : key === 'reject' ? 'error' : 'default';
  return <Tag color={color}>{key ? t(`flow.chart.outcomes.${key}`) : outcome}</Tag>;
}

/** who did the step: the assignee, or for a waiting task without one, that it awaits a claim */
function useWho() {
  const { t } = useTranslation();
  return (v: FlowHistoryItem) => v.assigneeName ?? v.assignee ?? (v.endTime === null && v.historyActivityType === 'userTask' ? t('flow.chart.unclaimed') : '');
}

function VisitsTip({ id, visits }: { id: string; visits: readonly FlowHistoryItem[] }) {
  const { t } = useTranslation();
  const who = useWho();
  return (
    <div className="flow-chart-tip" {...testId('flow-chart-tip')} data-element-id={id}>
      {visits.map((v, i) => (
        <div key={`${v.createTime ?? ''}-${i}`} className="flow-chart-tip-visit">
          {visits.length > 1 && <strong>{t('flow.chart.visit', { n: i + 1 })}</strong>}
          <dl>
            <dt>{t('flow.chart.assignee')}</dt><dd>{who(v) || '-'}</dd>
            <dt>{t('flow.chart.startTime')}</dt><dd>{v.createTime ?? '-'}</dd>
            <dt>{t('flow.chart.endTime')}</dt><dd>{v.endTime ?? t('flow.chart.running')}</dd>
            {v.outcome && <><dt>{t('flow.chart.outcome')}</dt><dd><OutcomeTag outcome={v.outcome} /></dd></>}
            {v.comment && <><dt>{t('flow.chart.comment')}</dt><dd>{v.comment}</dd></>}
          </dl>
        </div>
      ))}
    </div>
  );
}

function HistoryTable({ rows, loading }: { rows: FlowHistoryItem[] | undefined; loading: boolean }) {
  const { t } = useTranslation();
  const who = useWho();
  const columns: TableColumnsType<FlowHistoryItem> = [
    { title: t('flow.chart.step'), key: 'step', width: 150, ellipsis: true, render: (_, v) => stepLabel(v, (type) => t(`flow.chart.unnamed.${type}`)) },
    { title: t('flow.chart.assignee'), key: 'who', width: 110, ellipsis: true, render: (_, v) => who(v) },
    { title: t('flow.chart.startTime'), dataIndex: 'createTime', width: 160 },
    {
      title: t('flow.chart.endTime'), dataIndex: 'endTime', width: 160,
      render: (_, v) => v.endTime ?? <Tag color="warning">{t('flow.chart.running')}</Tag>,
    },
    { title: t('flow.chart.duration'), dataIndex: 'durationMs', width: 100, render: (_, v) => formatDuration(v.durationMs) },
    { title: t('flow.chart.outcome'), dataIndex: 'outcome', width: 90, render: (_, v) => <OutcomeTag outcome={v.outcome} /> },
    { title: t('flow.chart.comment'), dataIndex: 'comment', ellipsis: true },
  ];
  return (
    <div style={{ marginTop: 12 }} {...testId('flow-chart-history')}>
      <div style={{ fontWeight: 600, marginBottom: 6 }}>{t('flow.chart.history')}</div>
      <Table<FlowHistoryItem>
        size="small"
        rowKey={(v) => `${v.historyActivityId}|${v.createTime ?? ''}`}
        columns={columns}
        dataSource={rows ?? []}
        loading={loading}
        pagination={false}
        scroll={{ y: 220 }}
        locale={{ emptyText: t('flow.chart.noHistory') }}
        onRow={(v) => ({ 'data-element-id': v.historyActivityId }) as HTMLAttributes<HTMLElement>}
      />
    </div>
  );
}

import {
  workClaimResource, workDoneResource, workSendResource, workStartResource, workTodoResource,
} from '@console/contract/areas/flow/index';
import { App, Button } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { callAction } from '../../api/action';
import { ApiError } from '../../api/client';
import { addMessages } from '../../i18n/lazy';
import { flowEn, flowZh } from './i18n';
import { useDict } from '../../resource/dict';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ResourceRecord } from '../../resource/types';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';
import { CompleteTaskDialog } from './CompleteTaskDialog';
import { businessFormOf, formPath, instanceDetailPath, taskHandlePath } from './flowRoutes';
import { StartProcessDialog } from './StartProcessDialog';
import { useFlowChart } from './useFlowChart';

addMessages('flow', { zh: flowZh, en: flowEn });

type DefinitionRow = ResourceRecord<typeof workStartResource.fields>;
type TaskRow = ResourceRecord<typeof workTodoResource.fields>;
type DoneRow = ResourceRecord<typeof workDoneResource.fields>;
type InstanceRow = ResourceRecord<typeof workSendResource.fields>;

const { claimTask } = workClaimResource.actions;

/*
 * 我的事务: the five work lists, each the generic list of its definition with the row buttons of its kind of work.
 * A process whose category names a business form in the `flow` dictionary (flowRoutes.ts) is started, handled and
 * shown on that form's pages; any other through the generic dialogs and the diagram.
 */

function RowButton({ testid, onClick, children }: { testid: string; onClick: () => void; children: ReactNode }) {
  return <Button type="link" size="small" {...testId(testid)} onClick={onClick}>{children}</Button>;
}

function ChartButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return <RowButton testid="work-row-chart" onClick={onClick}>{t('flow.chart.open')}</RowButton>;
}

/** 发起事务: the startable processes; 发起 opens the business form, or the generic start dialog. */
export function WorkStartPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const flowDict = useDict('flow');
  const chart = useFlowChart();
  const [starting, setStarting] = useState<DefinitionRow | null>(null);
  return (
    <>
      <ResourcePage
        def={def}
        extraRowActions={(record) => {
          const row = record as DefinitionRow;
          // a business form that does not fit the process (the server read its model) is not opened: the dialog says why
          const start = () => {
            const form = businessFormOf(flowDict, row.category);
            if (form && !row.formProblem) void navigate(formPath(form, row.id));
            else setStarting(row);
          };
          return [
            <RowButton key="start" testid="work-row-start" onClick={start}>{t('flow.work.start')}</RowButton>,
            <ChartButton key="chart" onClick={() => chart.show({ processDefinitionId: row.id })} />,
          ];
        }}
      />
      {starting && (
        <StartProcessDialog
          definition={{ id: starting.id, name: starting.name ?? starting.id }}
          notice={starting.formProblem === 'noApprover' ? t('flow.work.formProblem.noApprover') : undefined}
          onClose={() => setStarting(null)}
        />
      )}
      {chart.dialog}
    </>
  );
}

/** 待签事务: the tasks offered to the user (or a role of theirs); 签收 makes one theirs, unless someone was faster. */
export function WorkClaimPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const chart = useFlowChart();
  const claim = (row: TaskRow, reload: () => void) => {
    modal.confirm({
      title: t('flow.work.claim'),
      content: t('flow.work.claimConfirm', { name: row.name ?? '' }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: () => callAction(claimTask, { taskId: row.id }).then(
        () => {
          void message.success(t('flow.work.claimed'));
          reload();
        },
        // the client has shown the server's words (已被他人签收); the row is gone for good
        (err: unknown) => {
          if (err instanceof ApiError && (err.code === 409 || err.code === 404)) reload();
        },
      ),
    });
  };
  return (
    <>
      <ResourcePage
        def={def}
        extraRowActions={(record, { reload }) => {
          const row = record as TaskRow;
          return [
            <RowButton key="claim" testid="work-row-claim" onClick={() => claim(row, reload)}>{t('flow.work.claim')}</RowButton>,
            row.instanceId && <ChartButton key="chart" onClick={() => chart.show({ processInstanceId: row.instanceId! })} />,
          ];
        }}
      />
      {chart.dialog}
    </>
  );
}

/** 待办事务: the user's tasks; 办理 opens the business form's handle page, or the generic decision dialog. */
export function WorkTodoPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const flowDict = useDict('flow');
  const chart = useFlowChart();
  const [handling, setHandling] = useState<{ row: TaskRow; reload: () => void } | null>(null);
  return (
    <>
      <ResourcePage
        def={def}
        extraRowActions={(record, { reload }) => {
          const row = record as TaskRow;
          const handle = () => {
            const path = taskHandlePath(flowDict, row);
            if (path) void navigate(path);
            else setHandling({ row, reload });
          };
          return [
            <RowButton key="handle" testid="work-row-handle" onClick={handle}>{t('flow.work.handle')}</RowButton>,
            row.instanceId && <ChartButton key="chart" onClick={() => chart.show({ processInstanceId: row.instanceId! })} />,
          ];
        }}
      />
      {handling && (
        <CompleteTaskDialog
          task={{ id: handling.row.id, name: handling.row.name ?? '', instanceId: handling.row.instanceId }}
          onDone={handling.reload}
          onClose={() => setHandling(null)}
        />
      )}
      {chart.dialog}
    </>
  );
}

/** 详情 of an instance: its business form's detail page, else its diagram (which holds its history). */
function useInstanceDetail(show: (processInstanceId: string) => void) {
  const navigate = useNavigate();
  const flowDict = useDict('flow');
  return (row: { category?: string | null; businessKey?: string | null }, processInstanceId: string) => {
    const path = instanceDetailPath(flowDict, row, processInstanceId);
    if (path) void navigate(path);
    else show(processInstanceId);
  };
}

/** 已发事务: the instances the user started, running or ended. */
export function WorkSendPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const chart = useFlowChart();
  const detail = useInstanceDetail((processInstanceId) => chart.show({ processInstanceId }));
  return (
    <>
      <ResourcePage
        def={def}
        extraRowActions={(record) => {
          const row = record as InstanceRow;
          return [
            <RowButton key="detail" testid="work-row-detail" onClick={() => detail(row, row.id)}>{t('flow.work.detail')}</RowButton>,
            <ChartButton key="chart" onClick={() => chart.show({ processInstanceId: row.id })} />,
          ];
        }}
      />
      {chart.dialog}
    </>
  );
}

/** 办结事务: the tasks the user completed. */
export function WorkDonePage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const chart = useFlowChart();
  const detail = useInstanceDetail((processInstanceId) => chart.show({ processInstanceId }));
  return (
    <>
      <ResourcePage
        def={def}
        extraRowActions={(record) => {
          const row = record as DoneRow;
          const instanceId = row.instanceId;
          if (!instanceId) return [];
          return [
            <RowButton key="detail" testid="work-row-detail" onClick={() => detail(row, instanceId)}>{t('flow.work.detail')}</RowButton>,
            <ChartButton key="chart" onClick={() => chart.show({ processInstanceId: instanceId })} />,
          ];
        }}
      />
      {chart.dialog}
    </>
  );
}

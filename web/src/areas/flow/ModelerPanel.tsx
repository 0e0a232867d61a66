import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { flowZh } from './i18n';
import { testId } from '../../testId';
import { AssigneePicker, type PickedField } from './AssigneePicker';
import type { DiagramElement, Moddle, Modeling } from './bpmnTypes';
import { fieldUpdate, isIsoDuration, isReadOnly, panelFields, panelKind, readField, timerOf, type PanelField } from './flowableProps';

/** the services the panel writes through (bpmn-js Modeler's) */
export interface PanelServices {
  modeling: Modeling;
  moddle: Moddle;
}

type PropText = keyof typeof flowZh.model.props;

const HINT: Partial<Record<PanelField, PropText>> = {
  assignee: 'assigneeHint',
  candidateUsers: 'candidateUsersHint',
  candidateGroups: 'candidateGroupsHint',
  condition: 'conditionHint',
  class: 'handlerHint',
  duration: 'durationHint',
};

const LABEL: Record<PanelField, PropText> = {
  id: 'id', name: 'name', assignee: 'assignee', candidateUsers: 'candidateUsers', candidateGroups: 'candidateGroups',
  condition: 'condition', class: 'handler', delegateExpression: 'delegateExpression', duration: 'duration',
};

const isPicked = (field: PanelField): field is PickedField => field === 'assignee' || field === 'candidateUsers' || field === 'candidateGroups';

/**
 * The modeler's properties of the selected element (none: the process): its id, name and, by kind, the
 * assignment of a user task, the condition of a sequence flow, the handler of a service task, the duration of a
 * timer. A field is written when it loses the focus or on Enter (one undo step per edit). Remount it per element
 * (`key`); its parent renders it again after every command, so that an undo shows here.
 */
export function ModelerPanel({ element, services, modelKey }: { element: DiagramElement; services: PanelServices; modelKey: string }) {
  const { t } = useTranslation();
  const [drafts, setDrafts] = useState<Partial<Record<PanelField, string>>>({});
  const bo = element.businessObject;
  const kind = panelKind(bo);
  const fields = panelFields(kind);
  const valueOf = (field: PanelField) => drafts[field] ?? readField(bo, field);
  const invalid = (field: PanelField) => field === 'duration' && !isIsoDuration(valueOf(field));

  const commit = (field: PanelField, given?: string) => {
    const draft = given ?? drafts[field];
    if (draft === undefined || invalid(field)) return;
    setDrafts(({ [field]: _done, ...rest }) => rest);
    if (draft.trim() === readField(bo, field)) return;
    const update = fieldUpdate(field, draft, (body) => services.moddle.create('bpmn:FormalExpression', { body }));
    if (!update) return;
    if (update.on === 'element') {
      services.modeling.updateProperties(element, update.properties);
      return;
    }
    const timer = timerOf(bo);
    if (timer) services.modeling.updateModdleProperties(element, timer, update.properties);
  };

  const processId = kind === 'process' ? readField(bo, 'id') : '';
  return (
    <div className="flow-modeler-panel" {...testId('modeler-panel')} data-kind={kind} data-element-id={element.id}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('flow.model.props.title')} · {kind === 'process' ? t('flow.model.props.process') : bo.$type.replace(/^bpmn:/, '')}
      </Typography.Title>
      {kind === 'process' && processId !== modelKey && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('flow.model.props.processIdHint')}
          action={
            <Button size="small" {...testId('modeler-fix-process-id')} onClick={() => services.modeling.updateProperties(element, { id: modelKey })}>
              {modelKey}
            </Button>
          } />
      )}
      <Form layout="vertical" size="small">
        {fields.map((field) => {
          const hint = HINT[field];
          return (
            <Form.Item key={field} label={t(`flow.model.props.${LABEL[field]}`)}
              help={invalid(field) ? t('flow.model.props.durationHint') : hint ? t(`flow.model.props.${hint}`) : undefined}
              validateStatus={invalid(field) ? 'error' : undefined}>
              {isPicked(field) ? (
                <AssigneePicker field={field} value={readField(bo, field)} onCommit={(v) => commit(field, v)} />
              ) : (
              <Input
                value={valueOf(field)}
                readOnly={isReadOnly(field)}
                variant={isReadOnly(field) ? 'filled' : 'outlined'}
                onChange={(e) => setDrafts((d) => ({ ...d, [field]: e.target.value }))}
                onBlur={() => commit(field)}
                onPressEnter={() => commit(field)}
                {...testId(`modeler-prop-${field}`)}
              />
              )}
            </Form.Item>
          );
        })}
      </Form>
      {kind === 'other' && <Typography.Text type="secondary">{t('flow.model.props.noProps')}</Typography.Text>}
    </div>
  );
}

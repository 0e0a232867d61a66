import type { ModdleElement } from './bpmnTypes';

/** What the modeler's properties panel shows for the selected element (nothing selected: the process). */
export type PanelKind = 'process' | 'userTask' | 'sequenceFlow' | 'serviceTask' | 'timerEvent' | 'other';

export type PanelField =
  | 'id' | 'name'
  | 'assignee' | 'candidateUsers' | 'candidateGroups'
  | 'condition'
  | 'class' | 'delegateExpression'
  | 'duration';

/** the service tasks whose handler the server looks up (server/src/modules/flow/bpmn/compile.ts SERVICE_TYPES) */
const SERVICE_TYPES = new Set(['bpmn:ServiceTask', 'bpmn:SendTask']);

const FLOWABLE_ATTR: Partial<Record<PanelField, string>> = {
  assignee: 'flowable:assignee',
  candidateUsers: 'flowable:candidateUsers',
  candidateGroups: 'flowable:candidateGroups',
  class: 'flowable:class',
  delegateExpression: 'flowable:delegateExpression',
};

const FIELDS: Record<PanelKind, readonly PanelField[]> = {
  process: ['id', 'name'],
  userTask: ['id', 'name', 'assignee', 'candidateUsers', 'candidateGroups'],
  sequenceFlow: ['id', 'name', 'condition'],
  serviceTask: ['id', 'name', 'class', 'delegateExpression'],
  timerEvent: ['id', 'name', 'duration'],
  other: ['id', 'name'],
};

/** the timer definition of an event (a timer boundary event, a timer catch or start event) */
export function timerOf(bo: ModdleElement): ModdleElement | undefined {
  const defs = bo.eventDefinitions;
  if (!Array.isArray(defs)) return undefined;
  return (defs as ModdleElement[]).find((d) => d.$type === 'bpmn:TimerEventDefinition');
}

export function panelKind(bo: ModdleElement): PanelKind {
  if (bo.$type === 'bpmn:Process') return 'process';
  if (bo.$type === 'bpmn:UserTask') return 'userTask';
  if (bo.$type === 'bpmn:SequenceFlow') return 'sequenceFlow';
  if (SERVICE_TYPES.has(bo.$type)) return 'serviceTask';
  if (timerOf(bo)) return 'timerEvent';
  return 'other';
}

export function panelFields(kind: PanelKind): readonly PanelField[] {
  return FIELDS[kind];
}

/** ids are the engine's references (and the process id the model key): shown, not edited here */
export function isReadOnly(field: PanelField): boolean {
  return field === 'id';
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const bodyOf = (v: unknown): string => text((v as { body?: unknown } | undefined)?.body);

/** The value the panel shows for a field of an element. */
export function readField(bo: ModdleElement, field: PanelField): string {
  const attr = FLOWABLE_ATTR[field];
  if (attr) return text(bo.get(attr));
  switch (field) {
    case 'id': return text(bo.id);
    case 'name': return text(bo.name);
    case 'condition': return bodyOf(bo.conditionExpression);
    case 'duration': {
      const timer = timerOf(bo);
      return timer ? bodyOf(timer.timeDuration) : '';
    }
    default: return '';
  }
}

/** makes a `bpmn:FormalExpression` (bpmn-js's moddle.create) */
export type CreateExpression = (body: string) => ModdleElement;

/**
 * A panel edit as bpmn-js writes it: properties of the element's business object (`modeling.updateProperties`), or of
 * its timer definition (`modeling.updateModdleProperties(element, timer, …)`). An emptied field removes the attribute
 * or the expression (undefined), so that no empty `flowable:assignee=""` reaches the engine.
 */
export function fieldUpdate(field: PanelField, raw: string, expression: CreateExpression):
  { on: 'element' | 'timer'; properties: Record<string, unknown> } | null {
  const value = raw.trim();
  const attr = FLOWABLE_ATTR[field];
  if (attr) return { on: 'element', properties: { [attr]: value || undefined } };
  switch (field) {
    case 'name': return { on: 'element', properties: { name: value || undefined } };
    case 'condition': return { on: 'element', properties: { conditionExpression: value ? expression(value) : undefined } };
    case 'duration': return { on: 'timer', properties: { timeDuration: value ? expression(value) : undefined } };
    default: return null;
  }
}

/** An ISO 8601 duration as the timer takes it (PT24H, P2D, P1DT12H, PT30M); empty is allowed (no timeout yet). */
export function isIsoDuration(v: string): boolean {
  const s = v.trim();
  if (s === '' || /^\$\{.*\}$/.test(s)) return true;
  return /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/.test(s);
}

import { describe, expect, it } from 'vitest';
import type { ModdleElement } from './bpmnTypes';
import { flowableDescriptor } from './flowableModdle';
import { fieldUpdate, isIsoDuration, panelFields, panelKind, readField, timerOf } from './flowableProps';

/** a business object as bpmn-moddle makes it, enough for the panel's helpers */
function bo(type: string, props: Record<string, unknown> = {}, attrs: Record<string, unknown> = {}): ModdleElement {
  return { $type: type, ...props, get: (name: string) => attrs[name] ?? props[name] };
}

const expr = (body: string): ModdleElement => bo('bpmn:FormalExpression', { body });

describe('panelKind and panelFields', () => {
  it('tells the elements the panel edits apart', () => {
    expect(panelKind(bo('bpmn:Process'))).toBe('process');
    expect(panelKind(bo('bpmn:UserTask'))).toBe('userTask');
    expect(panelKind(bo('bpmn:SequenceFlow'))).toBe('sequenceFlow');
    expect(panelKind(bo('bpmn:ServiceTask'))).toBe('serviceTask');
    expect(panelKind(bo('bpmn:SendTask'))).toBe('serviceTask');
    expect(panelKind(bo('bpmn:BoundaryEvent', { eventDefinitions: [bo('bpmn:TimerEventDefinition')] }))).toBe('timerEvent');
    expect(panelKind(bo('bpmn:BoundaryEvent', { eventDefinitions: [bo('bpmn:ErrorEventDefinition')] }))).toBe('other');
    expect(panelKind(bo('bpmn:ExclusiveGateway'))).toBe('other');
  });

  it('shows the assignment of a user task and the condition of a flow', () => {
    expect(panelFields('userTask')).toEqual(['id', 'name', 'assignee', 'candidateUsers', 'candidateGroups']);
    expect(panelFields('sequenceFlow')).toContain('condition');
    expect(panelFields('timerEvent')).toContain('duration');
    expect(panelFields('serviceTask')).toContain('class');
    expect(panelFields('process')).toEqual(['id', 'name']);
  });
});

describe('readField', () => {
  it('reads flowable attributes, expressions and the timer duration', () => {
    const task = bo('bpmn:UserTask', { id: 'managerApproval', name: '审批人审批' }, { 'flowable:assignee': '${taskUser}' });
    expect(readField(task, 'id')).toBe('managerApproval');
    expect(readField(task, 'name')).toBe('审批人审批');
    expect(readField(task, 'assignee')).toBe('${taskUser}');
    expect(readField(task, 'candidateGroups')).toBe('');
    expect(readField(bo('bpmn:SequenceFlow', { conditionExpression: expr('${days > 3}') }), 'condition')).toBe('${days > 3}');
    const timer = bo('bpmn:TimerEventDefinition', { timeDuration: expr('PT24H') });
    const event = bo('bpmn:BoundaryEvent', { eventDefinitions: [timer] });
    expect(timerOf(event)).toBe(timer);
    expect(readField(event, 'duration')).toBe('PT24H');
    expect(readField(bo('bpmn:ServiceTask', {}, { 'flowable:class': 'notifyHr' }), 'class')).toBe('notifyHr');
  });
});

describe('fieldUpdate', () => {
  it('writes flowable attributes, and removes them when emptied', () => {
    expect(fieldUpdate('candidateGroups', ' hr ', expr)).toEqual({ on: 'element', properties: { 'flowable:candidateGroups': 'hr' } });
    expect(fieldUpdate('assignee', '  ', expr)).toEqual({ on: 'element', properties: { 'flowable:assignee': undefined } });
    expect(fieldUpdate('class', 'notifyHr', expr)).toEqual({ on: 'element', properties: { 'flowable:class': 'notifyHr' } });
    expect(fieldUpdate('name', '人事审批', expr)).toEqual({ on: 'element', properties: { name: '人事审批' } });
  });

  it('writes conditions and durations as formal expressions', () => {
    const condition = fieldUpdate('condition', '${pass}', expr);
    expect(condition?.on).toBe('element');
    expect((condition?.properties.conditionExpression as ModdleElement).body).toBe('${pass}');
    expect(fieldUpdate('condition', '', expr)).toEqual({ on: 'element', properties: { conditionExpression: undefined } });
    const duration = fieldUpdate('duration', 'PT24H', expr);
    expect(duration?.on).toBe('timer');
    expect((duration?.properties.timeDuration as ModdleElement).body).toBe('PT24H');
  });

  it('never writes the id', () => {
    expect(fieldUpdate('id', 'other', expr)).toBeNull();
  });
});

describe('isIsoDuration', () => {
  it('takes ISO 8601 durations and expressions', () => {
    for (const ok of ['', 'PT24H', 'P2D', 'P1DT12H', 'PT30M', 'PT1.5S', 'P1W', '${timeout}']) expect(isIsoDuration(ok), ok).toBe(true);
    for (const bad of ['P', 'PT', '24H', 'PT24', 'P1H', 'soon']) expect(isIsoDuration(bad), bad).toBe(false);
  });
});

// bpmn-js's parser (bpmn-moddle) reads and writes the flowable attributes through the descriptor; it has no types of
// its own here, hence the shape below and the import through a variable
interface MinimalModdle {
  fromXML(xml: string): Promise<{ rootElement: ModdleElement; elementsById: Record<string, ModdleElement & { set(n: string, v: unknown): void }>; warnings: unknown[] }>;
  toXML(root: ModdleElement): Promise<{ xml: string }>;
  create(type: string, props?: Record<string, unknown>): ModdleElement;
}
const moddleModule = 'bpmn-moddle';

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  id="d" targetNamespace="http://www.flowable.org/processdef">
  <process id="Leave" name="请假流程" isExecutable="true">
    <startEvent id="start" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    <userTask id="approve" name="审批" flowable:assignee="\${taskUser}" />
    <sequenceFlow id="f2" sourceRef="approve" targetRef="end" />
    <endEvent id="end" />
  </process>
</definitions>`;

describe('the flowable descriptor', () => {
  it('reads flowable:assignee and writes candidate groups and conditions the server parses', async () => {
    const { default: BpmnModdle } = (await import(/* @vite-ignore */ moddleModule)) as { default: new (packages: object) => MinimalModdle };
    const moddle = new BpmnModdle({ flowable: flowableDescriptor });
    const { rootElement, elementsById, warnings } = await moddle.fromXML(XML);
    expect(warnings).toEqual([]);
    const task = elementsById.approve!;
    expect(readField(task, 'assignee')).toBe('${taskUser}');
    const apply = (el: { set(n: string, v: unknown): void }, update: ReturnType<typeof fieldUpdate>) => {
      for (const [k, v] of Object.entries(update!.properties)) el.set(k, v);
    };
    const create = (body: string) => moddle.create('bpmn:FormalExpression', { body });
    apply(task, fieldUpdate('assignee', '', create));
    apply(task, fieldUpdate('candidateGroups', 'hr', create));
    apply(elementsById.f2!, fieldUpdate('condition', '${days > 3}', create));
    const { xml } = await moddle.toXML(rootElement);
    expect(xml).toContain('flowable:candidateGroups="hr"');
    expect(xml).not.toContain('flowable:assignee');
    expect(xml).toMatch(/<conditionExpression xsi:type="tFormalExpression">\$\{days &gt; 3\}<\/conditionExpression>/);
  });
});

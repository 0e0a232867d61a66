import type { FlowHistoryItem } from '@console/contract/areas/flow/index';
import { describe, expect, it } from 'vitest';
import { flowMarkers, formatDuration, outcomeKey, stepLabel, visitsByElement, type FlowTrace } from './flowMarkers';

const act = (id: string, endTime: string | null, type = 'userTask'): FlowTrace => ({ historyActivityId: id, historyActivityType: type, endTime });
const take = (id: string): FlowTrace => ({ historyActivityId: id, historyActivityType: 'sequenceFlow', endTime: '2026-01-05 09:00:00' });

const item = (id: string, over: Partial<FlowHistoryItem> = {}): FlowHistoryItem => ({
  historyActivityId: id, historyActivityName: id, historyActivityType: 'userTask', assignee: null, assigneeName: null,
  createTime: '2026-01-05 09:00:00', endTime: null, outcome: null, comment: null, durationMs: null, ...over,
});

describe('flowMarkers', () => {
  it('marks finished activities done, open ones running and sequence flows taken', () => {
    const markers = flowMarkers([
      act('start', '2026-01-05 09:00:00', 'startEvent'), take('flowToManager'),
      act('managerApproval', '2026-01-05 10:00:00'), take('flowManagerDecision'),
      act('managerDecision', '2026-01-05 10:00:00', 'exclusiveGateway'), take('flowManagerPassed'),
      act('hrApproval', null),
    ]);
    expect(Object.fromEntries(markers)).toEqual({
      start: 'flow-done', flowToManager: 'flow-taken', managerApproval: 'flow-done', flowManagerDecision: 'flow-taken',
      managerDecision: 'flow-done', flowManagerPassed: 'flow-taken', hrApproval: 'flow-running',
    });
  });

  it('keeps a step running when the process came back to it, whatever the order of its visits', () => {
    expect(flowMarkers([act('managerApproval', '2026-01-05 10:00:00'), act('managerApproval', null)]).get('managerApproval')).toBe('flow-running');
    expect(flowMarkers([act('managerApproval', null), act('managerApproval', '2026-01-05 10:00:00')]).get('managerApproval')).toBe('flow-running');
  });

  it('marks nothing for a definition without an instance', () => {
    expect(flowMarkers([]).size).toBe(0);
  });
});

describe('visitsByElement', () => {
  it('groups the history by activity, oldest visit first', () => {
    const first = item('managerApproval', { outcome: 'reject', endTime: '2026-01-05 10:00:00' });
    const adjust = item('adjust', { outcome: 'pass' });
    const again = item('managerApproval');
    const visits = visitsByElement([first, adjust, again]);
    expect(visits.get('managerApproval')).toEqual([first, again]);
    expect(visits.get('adjust')).toEqual([adjust]);
    expect(visits.get('hrApproval')).toBeUndefined();
  });
});

describe('outcomeKey', () => {
  it('knows pass, reject and cancelled', () => {
    expect(outcomeKey('pass')).toBe('pass');
    expect(outcomeKey('reject')).toBe('reject');
    expect(outcomeKey('cancelled')).toBe('cancelled');
    expect(outcomeKey('other')).toBeNull();
    expect(outcomeKey(null)).toBeNull();
  });
});

describe('formatDuration', () => {
  it('reads in the largest units that matter', () => {
    expect(formatDuration(null)).toBe('');
    expect(formatDuration(4_400)).toBe('4 s');
    expect(formatDuration(12 * 60_000 + 5_000)).toBe('12 min');
    expect(formatDuration(3 * 3_600_000)).toBe('3 h');
    expect(formatDuration(3 * 3_600_000 + 20 * 60_000)).toBe('3 h 20 min');
    expect(formatDuration(2 * 86_400_000 + 4 * 3_600_000)).toBe('2 d 4 h');
    expect(formatDuration(86_400_000)).toBe('1 d');
  });
});

describe('stepLabel', () => {
  const unnamed = (type: 'startEvent' | 'endEvent') => (type === 'startEvent' ? 'Start' : 'End');
  const step = (historyActivityType: string, historyActivityName: string | null) => ({ historyActivityId: 'Event_0x1', historyActivityType, historyActivityName });
  it('names a step by the model, an unnamed start or end event by its kind, anything else unnamed by its id', () => {
    expect(stepLabel(step('startEvent', '提交申请'), unnamed)).toBe('提交申请');
    expect(stepLabel(step('startEvent', null), unnamed)).toBe('Start');
    expect(stepLabel(step('endEvent', '  '), unnamed)).toBe('End');
    expect(stepLabel(step('userTask', null), unnamed)).toBe('Event_0x1');
  });
});

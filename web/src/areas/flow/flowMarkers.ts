import type { FlowHistoryItem } from '@console/contract/areas/flow/index';

/** The classes the diagram puts on an element's `g.djs-element` (flowChart.css draws them). */
export const FLOW_MARKER = { done: 'flow-done', running: 'flow-running', taken: 'flow-taken' } as const;
export type FlowMarker = (typeof FLOW_MARKER)[keyof typeof FLOW_MARKER];

/** One entry of `process/model-view`'s `flow`: an activity visited (endTime null: running) or a sequence flow taken. */
export interface FlowTrace {
  historyActivityId: string;
  historyActivityType: string;
  endTime: string | null;
}

/**
 * The marker of each element an instance went through: a sequence flow taken, an activity running (one of its
 * visits has not ended; a loop back to a step makes it running again), or done.
 */
export function flowMarkers(flow: readonly FlowTrace[]): Map<string, FlowMarker> {
  const out = new Map<string, FlowMarker>();
  for (const f of flow) {
    if (f.historyActivityType === 'sequenceFlow') {
      out.set(f.historyActivityId, FLOW_MARKER.taken);
      continue;
    }
    if (f.endTime === null) out.set(f.historyActivityId, FLOW_MARKER.running);
    else if (out.get(f.historyActivityId) !== FLOW_MARKER.running) out.set(f.historyActivityId, FLOW_MARKER.done);
  }
  return out;
}

/** The visits of each activity in the instance's history, oldest first (what a hover over it shows). */
export function visitsByElement(history: readonly FlowHistoryItem[]): Map<string, FlowHistoryItem[]> {
  const out = new Map<string, FlowHistoryItem[]>();
  for (const h of history) {
    const visits = out.get(h.historyActivityId);
    if (visits) visits.push(h);
    else out.set(h.historyActivityId, [h]);
  }
  return out;
}

export type OutcomeKey = 'pass' | 'reject' | 'cancelled';

/** The outcomes the history names (anything else is shown as sent). */
export function outcomeKey(outcome: string | null): OutcomeKey | null {
  return outcome === 'pass' || outcome === 'reject' || outcome === 'cancelled' ? outcome : null;
}

/** A duration as the history table shows it: 45 s, 12 min, 3 h 20 min, 2 d 4 h. */
export function formatDuration(ms: number | null): string {
  if (ms === null || ms < 0) return '';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/**
 * What a step of the history is called: its name in the model; an unnamed start or end event by its kind (开始 /
 * 结束, Start / End), as the designer leaves them; anything else unnamed by its id.
 */
export function stepLabel(item: Pick<FlowHistoryItem, 'historyActivityName' | 'historyActivityType' | 'historyActivityId'>, unnamed: (type: 'startEvent' | 'endEvent') => string): string {
  const name = item.historyActivityName?.trim();
  if (name) return name;
  const type = item.historyActivityType;
  return type === 'startEvent' || type === 'endEvent' ? unnamed(type) : item.historyActivityId;
}

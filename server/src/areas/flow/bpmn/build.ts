import type { CallDefinition, EventDefinition, Flow, Listener, LoopDefinition, Node, NodeType, ProcessModel, VariableMapping } from './model.js';
import { MODEL_FORMAT } from './model.js';
import { type Element, handlerName, isNode, localName, SERVICE_TYPES, text } from './noCode.js';
import { elementRef, refuse } from './refusal.js';

/**
 * A checked BPMN process reduced to the runtime's model (model.ts), refusing, with the element and the reason,
 * what the runtime does not run as Flowable does.
 */

const NODE_TYPES: Record<string, NodeType> = {
  'bpmn:StartEvent': 'startEvent', 'bpmn:EndEvent': 'endEvent', 'bpmn:IntermediateCatchEvent': 'intermediateCatchEvent',
  'bpmn:IntermediateThrowEvent': 'intermediateThrowEvent', 'bpmn:BoundaryEvent': 'boundaryEvent',
  'bpmn:UserTask': 'userTask', 'bpmn:ServiceTask': 'serviceTask', 'bpmn:SendTask': 'sendTask', 'bpmn:BusinessRuleTask': 'businessRuleTask',
  'bpmn:ReceiveTask': 'receiveTask', 'bpmn:ManualTask': 'manualTask', 'bpmn:Task': 'task',
  'bpmn:ExclusiveGateway': 'exclusiveGateway', 'bpmn:ParallelGateway': 'parallelGateway', 'bpmn:InclusiveGateway': 'inclusiveGateway',
  'bpmn:EventBasedGateway': 'eventBasedGateway', 'bpmn:SubProcess': 'subProcess', 'bpmn:CallActivity': 'callActivity',
};
/** elements that carry no behaviour (data, annotations): kept in the diagram, ignored by the runtime */
const INERT = new Set(['bpmn:DataObject', 'bpmn:DataObjectReference', 'bpmn:DataStoreReference', 'bpmn:TextAnnotation', 'bpmn:Association', 'bpmn:Group']);
/** elements Flowable runs that this runtime does not (a refusal names them) */
const UNSUPPORTED: Record<string, [string, string]> = {
  'bpmn:ComplexGateway': ['复杂网关', 'a complex gateway'],
  'bpmn:Transaction': ['事务子流程', 'a transaction sub-process'],
  'bpmn:AdHocSubProcess': ['临时子流程', 'an ad-hoc sub-process'],
};

const attr = (e: Element, name: string): string | undefined => {
  const own = text(e[name]);
  if (own !== undefined) return own;
  const attrs = (e.$attrs ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(attrs)) if (localName(k) === name.toLowerCase() && !k.startsWith('xmlns')) return text(v);
  return undefined;
};
const bool = (v: string | undefined) => v?.trim().toLowerCase() === 'true';
const body = (v: unknown): string | null => {
  const t = isNode(v) ? text(v.body) : text(v);
  return t === undefined || t.trim() === '' ? null : t.trim();
};
const extensions = (e: Element): Element[] => ((e.extensionElements as Element | undefined)?.values as Element[] | undefined) ?? [];
const ofKind = (e: Element, kind: string) => extensions(e).filter((x) => localName(x.$type) === kind);

/** `a, ${b}` → ['a', '${b}'], commas inside an expression kept */
export function splitList(value: string | undefined): string[] {
  if (!value) return [];
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '{') depth++;
    if (ch === '}') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter(Boolean);
}

function listeners(e: Element, kind: 'executionlistener' | 'tasklistener'): Listener[] {
  return ofKind(e, kind).map((l) => ({ event: (text(l.event) ?? (kind === 'tasklistener' ? 'create' : 'start')).trim(), handler: handlerName(l)! }));
}

interface Names {
  messages: Map<string, string>;
  signals: Map<string, { name: string; global: boolean }>;
  errors: Map<string, string>;
  /** references kept as texts (compile.ts): an errorRef naming no <error> is the error code itself */
  textRefs: Map<unknown, string>;
}

function eventDefinition(e: Element, names: Names): EventDefinition {
  const defs = (e.eventDefinitions as Element[] | undefined) ?? [];
  const where = elementRef(e);
  if (defs.length > 1) refuse(where, '一个事件只能有一个事件定义', 'an event with several event definitions is not supported');
  const d = defs[0];
  if (!d) return { kind: 'none' };
  const ref = (v: unknown) => (isNode(v) ? v.id! : text(v) ?? '');
  switch (d.$type) {
    case 'bpmn:TimerEventDefinition': {
      const kinds = [['timeDuration', 'duration'], ['timeDate', 'date'], ['timeCycle', 'cycle']] as const;
      const found = kinds.map(([k, type]) => ({ type, expression: body(d[k]) })).filter((k) => k.expression);
      if (found.length !== 1) refuse(where, '定时器须有且只有一个 timeDuration、timeDate 或 timeCycle', 'a timer needs exactly one of timeDuration, timeDate or timeCycle');
      return { kind: 'timer', timer: { type: found[0]!.type, expression: found[0]!.expression! } };
    }
    case 'bpmn:MessageEventDefinition': {
      const id = ref(d.messageRef);
      if (!id) refuse(where, '消息事件未指定消息 (messageRef)', 'a message event names no message (messageRef)');
      return { kind: 'message', message: names.messages.get(id) ?? id };
    }
    case 'bpmn:SignalEventDefinition': {
      const id = ref(d.signalRef);
      if (!id) refuse(where, '信号事件未指定信号 (signalRef)', 'a signal event names no signal (signalRef)');
      const signal = names.signals.get(id) ?? { name: id, global: true };
      return { kind: 'signal', signal: signal.name, global: signal.global };
    }
    case 'bpmn:ErrorEventDefinition': {
      const id = ref(d.errorRef) || names.textRefs.get(d) || '';
      return { kind: 'error', code: id ? names.errors.get(id) ?? id : null };
    }
    case 'bpmn:TerminateEventDefinition':
      // Flowable's terminateMultiInstance ends the whole multi-instance activity; this runtime ends only the instance
      if (bool(attr(d, 'terminateMultiInstance'))) {
        refuse(where, '不支持 terminateMultiInstance (终止整个多实例活动); 终止结束事件只结束它所在的实例', 'terminateMultiInstance (ending the whole multi-instance activity) is not supported; a terminate end event ends the instance it is in');
      }
      return { kind: 'terminate', all: bool(attr(d, 'terminateAll')) };
    case 'bpmn:LinkEventDefinition':
      return { kind: 'link', link: text(d.name) ?? '' };
    default:
      return refuse(where, `不支持 ${d.$type.replace('bpmn:', '')}`, `${d.$type.replace('bpmn:', '')} is not supported`);
  }
}

function loopOf(e: Element, textRefs: Map<unknown, string>): LoopDefinition | undefined {
  const l = e.loopCharacteristics as Element | undefined;
  if (!l) return undefined;
  if (l.$type !== 'bpmn:MultiInstanceLoopCharacteristics') refuse(elementRef(e), '不支持标准循环 (standardLoopCharacteristics), 请用多实例', 'a standard loop is not supported (use multi-instance)');
  const collection = attr(l, 'collection')?.trim() || textRefs.get(l) || body(l.loopDataInputRef) || null;
  const elementVariable = attr(l, 'elementVariable')?.trim() || text((l.inputDataItem as Element | undefined)?.name)?.trim() || text((l.inputDataItem as Element | undefined)?.id) || null;
  const cardinality = body(l.loopCardinality);
  if (!collection && !cardinality) refuse(elementRef(e), '多实例须指定 loopCardinality 或 collection', 'a multi-instance activity needs a loopCardinality or a collection');
  return {
    sequential: l.isSequential === true || bool(text(l.isSequential)), cardinality, collection, elementVariable,
    elementIndexVariable: attr(l, 'elementIndexVariable')?.trim() || null, completion: body(l.completionCondition),
  };
}

const mappings = (e: Element, kind: 'in' | 'out'): VariableMapping[] => ofKind(e, kind)
  .filter((m) => text(m.target) || text(m.source))
  .map((m) => ({ source: text(m.source)?.trim() || null, sourceExpression: text(m.sourceExpression)?.trim() || null, target: (text(m.target) ?? text(m.source) ?? '').trim() }));

function callOf(e: Element): CallDefinition {
  const element = text(e.calledElement)?.trim();
  if (!element) refuse(elementRef(e), '调用活动未指定被调用的流程 (calledElement)', 'a call activity names no called process (calledElement)');
  const type = attr(e, 'calledElementType');
  if (type && type !== 'key') refuse(elementRef(e), `被调用流程只能按标识 (key) 查找, 不支持「${type}」`, `a called process is found by its key only, not by "${type}"`);
  const variablesAll = ofKind(e, 'in').some((m) => text(m.variables) === 'all');
  const outAll = ofKind(e, 'out').some((m) => text(m.variables) === 'all');
  const outputs = mappings(e, 'out');
  const businessKeyIn = ofKind(e, 'in').find((m) => text(m.businessKey));
  return {
    element: element!, inputs: mappings(e, 'in'), outputs: outAll ? [{ source: '*', sourceExpression: null, target: '*' }, ...outputs] : outputs,
    inheritVariables: variablesAll || bool(attr(e, 'inheritVariables')),
    businessKey: attr(e, 'businessKey')?.trim() || text(businessKeyIn?.businessKey)?.trim() || null, inheritBusinessKey: bool(attr(e, 'inheritBusinessKey')),
  };
}

/** potentialOwner / humanPerformer: `user(kermit), group(management)`; a bare name is a group (Flowable) */
function resources(e: Element, node: Node): void {
  for (const r of (e.resources as Element[] | undefined) ?? []) {
    const expression = body((r.resourceAssignmentExpression as Element | undefined)?.expression);
    if (!expression) continue;
    if (r.$type === 'bpmn:HumanPerformer') {
      node.assignee = expression;
      continue;
    }
    for (const part of splitList(expression)) {
      const m = /^(user|group)\((.*)\)$/.exec(part);
      if (m?.[1] === 'user') node.candidateUsers!.push(m[2]!.trim());
      else node.candidateGroups!.push(m ? m[2]!.trim() : part);
    }
  }
}

function nodeOf(e: Element, scope: string | null, names: Names, textRefs: Map<unknown, string>): Node {
  const type = NODE_TYPES[e.$type]!;
  const node: Node = { id: e.id!, type, name: text(e.name) ?? null, scope, incoming: [], outgoing: [], default: isNode(e.default) ? e.default.id! : null };
  const execution = listeners(e, 'executionlistener');
  if (execution.length) node.listeners = execution;
  if (e.$type.endsWith('Event')) node.event = eventDefinition(e, names);
  const loop = loopOf(e, textRefs);
  if (loop) node.loop = loop;
  switch (type) {
    case 'userTask':
      node.assignee = attr(e, 'assignee')?.trim() || null;
      node.candidateUsers = splitList(attr(e, 'candidateUsers'));
      node.candidateGroups = splitList(attr(e, 'candidateGroups'));
      node.formKey = attr(e, 'formKey') ?? null;
      resources(e, node);
      node.taskListeners = listeners(e, 'tasklistener');
      break;
    case 'startEvent':
      node.initiator = attr(e, 'initiator')?.trim() || null;
      node.interrupting = e.isInterrupting !== false;
      break;
    case 'boundaryEvent':
      node.attachedTo = (e.attachedToRef as Element).id!;
      node.interrupting = e.cancelActivity !== false && text(e.cancelActivity) !== 'false';
      break;
    case 'subProcess':
      node.triggeredByEvent = e.triggeredByEvent === true;
      node.children = [];
      break;
    case 'callActivity':
      node.call = callOf(e);
      break;
    case 'receiveTask': {
      const ref = isNode(e.messageRef) ? e.messageRef.id! : text(e.messageRef);
      if (ref) node.event = { kind: 'message', message: names.messages.get(ref) ?? ref };
      break;
    }
    default:
      if (SERVICE_TYPES.has(e.$type)) {
        node.handler = handlerName(e)!;
        node.resultVariable = attr(e, 'resultVariable')?.trim() || null;
      }
  }
  return node;
}

function checkEvents(model: ProcessModel): void {
  for (const n of Object.values(model.nodes)) {
    const where = { id: n.id, type: n.type };
    const kind = n.event?.kind;
    const parent = n.scope ? model.nodes[n.scope] : undefined;
    if (n.type === 'startEvent') {
      const inEventSub = parent?.triggeredByEvent === true;
      if (inEventSub && kind === 'none') refuse(where, '事件子流程的开始事件须有触发事件 (消息、信号、定时器或错误)', 'the start event of an event sub-process needs a trigger (message, signal, timer or error)');
      if (!inEventSub && kind !== 'none' && !(kind === 'message' && !n.scope)) {
        refuse(where, '流程的开始事件只能是空开始事件或 (流程一级的) 消息开始事件; 定时和信号开始事件不支持',
          'a process starts by a none start event or (at the process\'s level) a message start event; timer and signal start events are not supported');
      }
    }
    if (n.type === 'endEvent' && kind && !['none', 'terminate', 'error', 'signal', 'message'].includes(kind)) refuse(where, `不支持 ${kind} 结束事件`, `a ${kind} end event is not supported`);
    if (n.type === 'intermediateCatchEvent' && !['timer', 'message', 'signal', 'link'].includes(kind ?? '')) {
      refuse(where, '中间捕获事件须为定时器、消息、信号或链接事件', 'an intermediate catch event waits for a timer, a message, a signal or a link');
    }
    if (n.type === 'intermediateThrowEvent' && !['none', 'signal', 'message', 'link'].includes(kind ?? '')) refuse(where, `不支持 ${kind} 抛出事件`, `a ${kind} throw event is not supported`);
    if (n.type === 'boundaryEvent') {
      if (!['timer', 'message', 'signal', 'error'].includes(kind ?? '')) refuse(where, '边界事件须为定时器、消息、信号或错误事件', 'a boundary event is a timer, a message, a signal or an error');
      if (kind === 'error' && n.interrupting === false) refuse(where, '错误边界事件总是中断的', 'an error boundary event always interrupts');
      const host = model.nodes[n.attachedTo!];
      if (!host || host.type.endsWith('Event') || host.type.endsWith('Gateway')) refuse(where, '边界事件须附着在活动上', 'a boundary event is attached to an activity');
      (host!.boundaries ??= []).push(n.id);
    }
    if (n.event?.kind === 'link' && !n.event.link) refuse(where, '链接事件须有名称', 'a link event needs a name');
    if (n.type === 'intermediateThrowEvent' && n.event?.kind === 'link') {
      const link = n.event.link;
      const catches = Object.values(model.nodes).filter((c) => c.scope === n.scope && c.type === 'intermediateCatchEvent' && c.event?.kind === 'link' && c.event.link === link);
      if (catches.length !== 1) {
        refuse(where, `链接抛出事件「${link}」须在同一层级有且只有一个同名的链接捕获事件 (现有 ${catches.length} 个)`,
          `a link throw event "${link}" needs exactly one link catch event of that name at its level (there are ${catches.length})`);
      }
    }
  }
}

function checkFlows(model: ProcessModel): void {
  for (const f of Object.values(model.flows)) {
    const source = model.nodes[f.source];
    const target = model.nodes[f.target];
    const where = { id: f.id, type: 'sequenceFlow' };
    if (!source || !target) refuse(where, '顺序流的起点或终点不是可执行的元素', 'a sequence flow starts or ends at an element that does not run');
    if (source!.scope !== target!.scope) refuse(where, '顺序流不能跨越子流程的边界', 'a sequence flow cannot cross a sub-process\'s boundary');
    if (target!.type === 'startEvent' || target!.type === 'boundaryEvent') refuse(where, '顺序流不能指向开始事件或边界事件', 'a sequence flow cannot lead into a start or boundary event');
    if (source!.type === 'endEvent') refuse(where, '结束事件不能有流出的顺序流', 'an end event has no outgoing sequence flow');
  }
  const starts = (scope: string | null) => Object.values(model.nodes).filter((n) => n.scope === scope && n.type === 'startEvent' && n.event?.kind === 'none');
  if (starts(null).length > 1) refuse({ id: model.key, type: 'process' }, '流程有多个空开始事件', 'the process has more than one none start event');
  if (!starts(null).length && !model.startMessages.length) refuse({ id: model.key, type: 'process' }, '流程没有开始事件', 'the process has no start event');
  for (const n of Object.values(model.nodes)) {
    if (n.type !== 'subProcess') continue;
    const inside = starts(n.id);
    if (!n.triggeredByEvent && inside.length !== 1) refuse({ id: n.id, type: n.type }, '子流程须有且只有一个空开始事件', 'a sub-process needs exactly one none start event');
  }
}

/** Builds the runtime's model of one process of a checked document. */
export function buildProcess(process: Element, definitions: Element, textRefs: Map<unknown, string>): ProcessModel {
  const roots = (definitions.rootElements as Element[] | undefined) ?? [];
  const names: Names = { messages: new Map(), signals: new Map(), errors: new Map(), textRefs };
  for (const r of roots) {
    if (r.$type === 'bpmn:Message') names.messages.set(r.id!, text(r.name)?.trim() || r.id!);
    if (r.$type === 'bpmn:Signal') names.signals.set(r.id!, { name: text(r.name)?.trim() || r.id!, global: attr(r, 'scope') !== 'processInstance' });
    if (r.$type === 'bpmn:Error') names.errors.set(r.id!, text(r.errorCode)?.trim() || r.id!);
  }
  const model: ProcessModel = {
    format: MODEL_FORMAT, key: process.id!, name: text(process.name) ?? process.id!, nodes: {}, flows: {},
    listeners: listeners(process, 'executionlistener'), startMessages: [],
  };
  const flows: Flow[] = [];
  const walk = (elements: Element[] | undefined, scope: string | null) => {
    for (const e of elements ?? []) {
      if (e.$type === 'bpmn:SequenceFlow') {
        const flow: Flow = { id: e.id!, name: text(e.name) ?? null, source: (e.sourceRef as Element).id!, target: (e.targetRef as Element).id!, condition: body(e.conditionExpression) };
        const taken = listeners(e, 'executionlistener');
        if (taken.length) flow.listeners = taken;
        flows.push(flow);
        continue;
      }
      if (INERT.has(e.$type)) continue;
      const unsupported = UNSUPPORTED[e.$type];
      if (unsupported) refuse(elementRef(e), `不支持${unsupported[0]}`, `${unsupported[1]} is not supported`);
      if (e.$type === 'bpmn:ScriptTask') refuse(elementRef(e), '不支持脚本任务', 'a script task is not supported');
      if (!NODE_TYPES[e.$type]) refuse(elementRef(e), `不支持 ${e.$type}`, `${e.$type} is not supported`);
      const node = nodeOf(e, scope, names, textRefs);
      model.nodes[node.id] = node;
      if (scope) model.nodes[scope]!.children!.push(node.id);
      if (node.type === 'startEvent' && !scope && node.event?.kind === 'message') model.startMessages.push(node.event.message);
      if (node.type === 'subProcess') walk(e.flowElements as Element[], node.id);
    }
  };
  walk(process.flowElements as Element[], null);
  for (const f of flows) {
    model.flows[f.id] = f;
    model.nodes[f.source]?.outgoing.push(f.id);
    model.nodes[f.target]?.incoming.push(f.id);
  }
  // the events first: a process whose only start is a timer or signal start is refused naming that start event,
  // not as a process without a start event
  checkEvents(model);
  checkFlows(model);
  return model;
}

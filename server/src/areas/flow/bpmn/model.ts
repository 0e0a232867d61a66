/**
 * A process as the runtime reads it: the checked BPMN model reduced to what decides a path (compile.ts builds
 * it, runtime/ walks it). Plain JSON, stored with the definition; expressions stay texts (`${…}`), evaluated
 * when reached.
 */

export type NodeType =
  | 'startEvent' | 'endEvent' | 'intermediateCatchEvent' | 'intermediateThrowEvent' | 'boundaryEvent'
  | 'userTask' | 'serviceTask' | 'sendTask' | 'businessRuleTask' | 'receiveTask' | 'manualTask' | 'task'
  | 'exclusiveGateway' | 'parallelGateway' | 'inclusiveGateway' | 'eventBasedGateway'
  | 'subProcess' | 'callActivity';

/** what an event waits for or throws */
export type EventDefinition =
  | { kind: 'none' }
  | { kind: 'timer'; timer: TimerDefinition }
  | { kind: 'message'; message: string }
  | { kind: 'signal'; signal: string; global: boolean }
  /** code null: a catch-all (a boundary or start without an error code); on an end event, the error thrown */
  | { kind: 'error'; code: string | null }
  | { kind: 'terminate'; all: boolean }
  | { kind: 'link'; link: string };

export interface TimerDefinition {
  type: 'duration' | 'date' | 'cycle';
  /** an ISO 8601 text, or an expression giving one */
  expression: string;
}

/** a handler of the server's registry called at an event of an element (execution or task listener) */
export interface Listener {
  event: string;
  handler: string;
}

export interface LoopDefinition {
  sequential: boolean;
  cardinality: string | null;
  /** an expression, or a variable's name, giving the list the instances are made from */
  collection: string | null;
  elementVariable: string | null;
  elementIndexVariable: string | null;
  completion: string | null;
}

export interface VariableMapping {
  source: string | null;
  sourceExpression: string | null;
  target: string;
}

export interface CallDefinition {
  /** the called process's key, or an expression giving it */
  element: string;
  inputs: VariableMapping[];
  outputs: VariableMapping[];
  inheritVariables: boolean;
  /** the child's business key (an expression), or the parent's when inherited */
  businessKey: string | null;
  inheritBusinessKey: boolean;
}

export interface Node {
  id: string;
  type: NodeType;
  name: string | null;
  /** the sub-process this node is in; null at the process's level */
  scope: string | null;
  incoming: string[];
  outgoing: string[];
  /** the flow taken when no condition holds (gateways and activities) */
  default: string | null;
  event?: EventDefinition;
  /** for a boundary event: the activity it is attached to, and whether it cancels that activity */
  attachedTo?: string;
  interrupting?: boolean;
  /** the boundary events on this activity */
  boundaries?: string[];
  loop?: LoopDefinition;
  listeners?: Listener[];
  // user tasks
  assignee?: string | null;
  candidateUsers?: string[];
  candidateGroups?: string[];
  formKey?: string | null;
  taskListeners?: Listener[];
  // service tasks
  handler?: string;
  resultVariable?: string | null;
  // start events
  initiator?: string | null;
  // sub-processes
  children?: string[];
  triggeredByEvent?: boolean;
  // call activities
  call?: CallDefinition;
}

export interface Flow {
  id: string;
  name: string | null;
  source: string;
  target: string;
  condition: string | null;
  /** execution listeners of the flow (event `take`) */
  listeners?: Listener[];
}

export interface ProcessModel {
  /** the format of this JSON (a definition compiled by an older format is compiled again from its XML) */
  format: typeof MODEL_FORMAT;
  key: string;
  name: string;
  nodes: Record<string, Node>;
  flows: Record<string, Flow>;
  /** the process's own listeners (start, end) */
  listeners: Listener[];
  /** the message names of the process's message start events */
  startMessages: string[];
}

export const MODEL_FORMAT = 2;

/** the nodes directly in a scope (a sub-process's id, or null for the process) */
export function nodesIn(model: ProcessModel, scope: string | null): Node[] {
  return Object.values(model.nodes).filter((n) => n.scope === scope);
}

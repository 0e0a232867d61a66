import { evaluateExpression, hasExpression } from '../expressions.js';
import type { Flow, Node, ProcessModel } from '../model.js';
import { type HistoryEvent, type Runtime, type ServiceHandler, StepFailed, type StepLimits, type StepOutput, StepStopped } from './context.js';
import { fire, subscribeBoundaries, subscribeEventSubProcesses, throwError, waitFor } from './events.js';
import { eventBased, exclusive, inclusive, parallel, selectFlows, wakeInclusiveJoins } from './gateways.js';
import { instanceDone, startMulti } from './multi.js';
import { type Execution, type InstanceState, STATE_FORMAT } from './state.js';
import { callProcess, openTask, runService } from './tasks.js';

/**
 * The interpreter of one step (Flowable's agenda): operations run in order, each moving one execution, until
 * every execution waits or the process ended. It reads and writes the instance's state (state.ts) and collects
 * what the step did (tasks opened and closed, history, calls, signals) for the engine to write.
 */

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export class Interpreter implements Runtime {
  readonly out: StepOutput = {
    opened: new Map(), closed: [], history: [], calls: [], cancelledCalls: [], signals: [], uncaughtError: null, terminatedAll: false, assigned: new Map(),
  };
  ended = false;
  private readonly byId = new Map<string, Execution>();
  private readonly agenda: Array<() => Promise<void> | void> = [];
  private activities = 0;
  private readonly started = Date.now();

  constructor(
    readonly model: ProcessModel,
    private readonly state: InstanceState,
    readonly handlers: Readonly<Record<string, ServiceHandler>>,
    private readonly limits: StepLimits,
    readonly now: Date,
    readonly businessKey: string | null,
  ) {
    for (const e of state.executions) this.byId.set(e.id, e);
  }

  static fresh(): InstanceState {
    return { format: STATE_FORMAT, seq: 0, executions: [] };
  }

  node(id: string): Node {
    const n = this.model.nodes[id];
    if (!n) throw new StepFailed(`the instance is at "${id}", which its definition does not have`);
    return n;
  }

  flow(id: string): Flow {
    return this.model.flows[id]!;
  }

  nextId(prefix: 'x' | 'v'): string {
    return `${prefix}${++this.state.seq}`;
  }

  get(id: string) {
    return this.byId.get(id);
  }

  root(): Execution {
    return this.state.executions.find((e) => e.parent === null && !e.watches)!;
  }

  add(e: Omit<Execution, 'id'>): Execution {
    const x: Execution = { id: this.nextId('x'), ...e };
    this.state.executions.push(x);
    this.byId.set(x.id, x);
    return x;
  }

  drop(e: Execution): void {
    const i = this.state.executions.indexOf(e);
    if (i >= 0) this.state.executions.splice(i, 1);
    this.byId.delete(e.id);
  }

  children(scope: Execution): Execution[] {
    return this.state.executions.filter((e) => e.parent === scope.id && !e.watches);
  }

  subscriptions(of: Execution): Execution[] {
    return this.state.executions.filter((e) => e.watches === of.id);
  }

  all(): Execution[] {
    return [...this.state.executions];
  }

  // ---- variables (Flowable: a local variable shadows; a new one is set on the process instance) ----

  lookup(e: Execution, name: string): unknown {
    for (let x: Execution | undefined = e; x; x = x.parent ? this.byId.get(x.parent) : undefined) {
      if (x.vars && Object.prototype.hasOwnProperty.call(x.vars, name)) return x.vars[name];
    }
    return undefined;
  }

  visible(e: Execution): Record<string, unknown> {
    const chain: Execution[] = [];
    for (let x: Execution | undefined = e; x; x = x.parent ? this.byId.get(x.parent) : undefined) chain.unshift(x);
    const out: Record<string, unknown> = {};
    for (const x of chain) Object.assign(out, x.vars);
    for (const k of Object.keys(out)) if (k.startsWith('__items_')) delete out[k];
    return out;
  }

  setVariable(e: Execution, name: string, value: unknown): void {
    for (let x: Execution | undefined = e; x; x = x.parent ? this.byId.get(x.parent) : undefined) {
      if (x.vars && Object.prototype.hasOwnProperty.call(x.vars, name)) {
        x.vars[name] = value;
        return;
      }
    }
    const root = this.root();
    (root.vars ??= {})[name] = value;
  }

  setVariables(e: Execution, vars: Record<string, unknown> | void | undefined): void {
    if (!isObject(vars)) return;
    for (const [k, v] of Object.entries(vars)) if (k !== '__proto__' && v !== undefined) this.setVariable(e, k, v);
  }

  evaluate(e: Execution, text: string, where: Node | Flow): unknown {
    if (!hasExpression(text)) return text;
    try {
      return evaluateExpression(text, this.visible(e));
    } catch (err) {
      throw new StepFailed((err as Error).message, { id: where.id, type: 'type' in where ? where.type : 'sequenceFlow' });
    }
  }

  holds(e: Execution, flow: Flow): boolean {
    if (!flow.condition) return true;
    const v = this.evaluate(e, flow.condition, flow);
    if (typeof v === 'boolean') return v;
    throw new StepFailed(`the condition ${flow.condition} gives ${JSON.stringify(v) ?? 'nothing'}, not true or false`, { id: flow.id, type: 'sequenceFlow' });
  }

  // ---- bounds and history ----

  count(where: string): void {
    this.activities++;
    if (this.activities > this.limits.maxActivities) {
      throw new StepStopped(`more than ${this.limits.maxActivities} activities ran without the process waiting (a loop without a user task or a timer?), the last one ${where}`);
    }
    if (Date.now() - this.started > this.limits.maxMs) {
      throw new StepStopped(`the step ran longer than ${this.limits.maxMs / 1000} s without the process waiting, the last activity ${where}`);
    }
  }

  remainingMs(): number {
    return this.limits.maxMs - (Date.now() - this.started);
  }

  record(event: HistoryEvent['event'], node: Node | { id: string; type: string; name: string | null }, visit: string | null, extra: Partial<HistoryEvent> = {}): void {
    // Flowable's activity type is its model class's name (parseActivityType): a sub-process triggered by an event
    // is an EventSubProcess, an intermediate throw event a ThrowEvent
    const type = (node as Node).triggeredByEvent ? 'eventSubProcess' : node.type === 'intermediateThrowEvent' ? 'throwEvent' : node.type;
    this.out.history.push({
      event, elementId: node.id, elementType: `bpmn:${type.charAt(0).toUpperCase()}${type.slice(1)}`, elementName: node.name ?? null,
      executionId: visit, sourceId: null, targetId: null, at: new Date(), ...extra,
    });
  }

  push(fn: () => Promise<void> | void): void {
    this.agenda.push(fn);
  }

  /** runs the agenda until nothing is left to do, waking inclusive joins whose last token went elsewhere */
  async drain(): Promise<void> {
    for (;;) {
      while (this.agenda.length) await this.agenda.shift()!();
      if (this.ended || !(await wakeInclusiveJoins(this))) return;
    }
  }

  // ---- moving ----

  async arrive(e: Execution): Promise<void> {
    const node = this.node(e.node!);
    this.count(node.id);
    e.visit = this.nextId('v');
    this.record('start', node, e.visit);
    await this.listen(e, node, 'start');
  }

  enter(e: Execution): void {
    this.push(async () => {
      if (!this.byId.has(e.id)) return;
      const node = this.node(e.node!);
      delete e.visit;
      if (node.loop && !e.instance) return startMulti(this, e, node, (x, n) => this.behave(x, n));
      await this.arrive(e);
      await this.behave(e, node);
    });
  }

  async leave(e: Execution, flows?: string[]): Promise<void> {
    const node = this.node(e.node!);
    for (const s of this.subscriptions(e)) this.drop(s);
    if (e.visit) {
      this.record('end', node, e.visit);
      await this.listen(e, node, 'end');
    }
    if (e.instance) return instanceDone(this, e, (x, n) => this.behave(x, n));
    const chosen = flows ?? selectFlows(this, e, node, false);
    if (!chosen.length) return this.end(e);
    const tokens = chosen.map((_, i) => (i === 0 ? e : this.add({ parent: e.parent, node: e.node })));
    chosen.forEach((flowId, i) => this.take(tokens[i]!, flowId));
  }

  take(e: Execution, flowId: string): void {
    const flow = this.flow(flowId);
    this.record('take', { id: flow.id, type: 'sequenceFlow', name: flow.name }, null, { sourceId: flow.source, targetId: flow.target });
    e.node = flow.target;
    delete e.visit;
    if (flow.listeners?.length) {
      this.push(async () => {
        for (const l of flow.listeners!) if (l.event === 'take') await this.callListener(e, l.handler, flow);
      });
    }
    this.enter(e);
  }

  end(e: Execution): void {
    const parent = e.parent ? this.byId.get(e.parent) : undefined;
    this.drop(e);
    if (!parent) return;
    if (this.children(parent).length) return;
    this.push(() => this.scopeDone(parent));
  }

  /** a scope whose last token ended: the process ends, or the sub-process leaves */
  private async scopeDone(scope: Execution): Promise<void> {
    if (!this.byId.has(scope.id) || this.children(scope).length) return;
    if (scope.parent === null) return this.finish();
    delete scope.wait;
    await this.leave(scope);
  }

  async cancel(e: Execution): Promise<void> {
    for (const s of this.subscriptions(e)) this.drop(s);
    for (const c of this.children(e)) await this.cancel(c);
    const node = e.node ? this.model.nodes[e.node] : undefined;
    if (e.wait === 'task' && e.visit) {
      this.out.closed.push({ taskId: e.visit, outcome: 'cancelled' });
      if (node) await this.listen(e, node, 'delete', true);
    }
    if (e.wait === 'call') this.out.cancelledCalls.push(e.id);
    if (node && e.visit) this.record('cancel', node, e.visit);
    this.drop(e);
  }

  /** a process this instance called ended by terminateAll: Flowable ends the root instance, so this one too */
  async terminatedByCall(): Promise<void> {
    this.out.terminatedAll = true;
    await this.finish();
  }

  async finish(): Promise<void> {
    const root = this.root();
    for (const l of this.model.listeners) if (l.event === 'end') await this.callListener(root, l.handler, { id: this.model.key, type: 'process' });
    for (const e of this.all()) if (e !== root) await this.cancel(e);
    this.ended = true;
    this.agenda.length = 0;
  }

  async listen(e: Execution, node: Node, event: string, task = false): Promise<void> {
    const listeners = (task ? node.taskListeners : node.listeners) ?? [];
    for (const l of listeners) if (l.event === event) await this.callListener(e, l.handler, node);
  }

  private async callListener(e: Execution, name: string, where: { id: string; type?: string }): Promise<void> {
    const handler = this.handlers[name];
    if (!handler) throw new StepFailed(`no server handler "${name}"`, { id: where.id, type: where.type ?? 'sequenceFlow' });
    try {
      this.setVariables(e, await handler(this.visible(e)));
    } catch (err) {
      if (err instanceof StepFailed || err instanceof StepStopped) throw err;
      throw new StepFailed(err instanceof Error ? err.message : String(err), { id: where.id, type: where.type ?? 'sequenceFlow' });
    }
  }

  // ---- what each node does ----

  async behave(e: Execution, node: Node): Promise<void> {
    switch (node.type) {
      case 'userTask':
        return openTask(this, e, node);
      case 'serviceTask':
      case 'sendTask':
      case 'businessRuleTask':
        return runService(this, e, node, () => this.remainingMs());
      case 'receiveTask':
      case 'intermediateCatchEvent':
        return this.catchEvent(e, node);
      case 'exclusiveGateway':
        return exclusive(this, e, node);
      case 'parallelGateway':
        return parallel(this, e, node);
      case 'inclusiveGateway':
        return inclusive(this, e, node);
      case 'eventBasedGateway':
        return eventBased(this, e, node);
      case 'subProcess':
        return this.startScope(e, node);
      case 'callActivity':
        return callProcess(this, e, node);
      case 'endEvent':
        return this.endEvent(e, node);
      case 'intermediateThrowEvent':
        return this.throwEvent(e, node);
      case 'startEvent':
      case 'boundaryEvent':
      case 'task':
      case 'manualTask':
        return this.leave(e);
      default:
        // a definition's JSON the compiler did not write (it refuses every other type)
        throw new StepFailed(`the engine does not run a ${String((node as { type: unknown }).type)}`, { id: node.id, type: String(node.type) });
    }
  }

  private async catchEvent(e: Execution, node: Node): Promise<void> {
    if (node.event?.kind === 'link') return this.leave(e);
    e.wait = 'event';
    // a receive task without a message waits to be triggered (Flowable's runtimeService.trigger)
    if (node.event) Object.assign(e, waitFor(this, e, node));
    if (node.type === 'receiveTask') subscribeBoundaries(this, e, node);
  }

  private async startScope(e: Execution, node: Node): Promise<void> {
    e.wait = 'scope';
    subscribeBoundaries(this, e, node);
    subscribeEventSubProcesses(this, e, node.id);
    const start = (node.children ?? []).map((c) => this.node(c)).find((c) => c.type === 'startEvent' && c.event?.kind === 'none')!;
    this.enter(this.add({ parent: e.id, node: start.id }));
  }

  /** Starts the process at its none start event, or at the message start event of `message`. */
  start(variables: Record<string, unknown>, initiator: string | null, message?: string): void {
    const root = this.add({ parent: null, node: null, vars: { ...variables } });
    const starts = Object.values(this.model.nodes).filter((n) => n.scope === null && n.type === 'startEvent');
    const start = message ? starts.find((n) => n.event?.kind === 'message' && n.event.message === message) : starts.find((n) => n.event?.kind === 'none');
    if (!start) throw new StepFailed(message ? `the process has no start event for the message "${message}"` : 'the process has no none start event', { id: this.model.key, type: 'process' });
    if (start.initiator && initiator !== null) root.vars![start.initiator] = initiator;
    subscribeEventSubProcesses(this, root, null);
    this.push(async () => {
      for (const l of this.model.listeners) if (l.event === 'start') await this.callListener(root, l.handler, { id: this.model.key, type: 'process' });
    });
    this.enter(this.add({ parent: root.id, node: start.id }));
  }

  private async endEvent(e: Execution, node: Node): Promise<void> {
    const ev = node.event;
    if (ev?.kind === 'error') {
      this.record('end', node, e.visit ?? null);
      delete e.visit;
      if (!(await throwError(this, e, ev.code ?? ''))) this.uncaught(e, ev.code ?? '');
      return;
    }
    if (ev?.kind === 'terminate') return this.terminate(e, node, ev.all);
    if (ev?.kind === 'signal') this.throwSignal(ev.signal, ev.global);
    await this.leave(e);
  }

  /** no catcher here: the calling process may have one (the engine passes it on), or the step fails */
  private uncaught(e: Execution, code: string): void {
    this.out.uncaughtError = { code, from: e.node ?? '' };
    this.drop(e);
  }

  private async terminate(e: Execution, node: Node, all: boolean): Promise<void> {
    this.record('end', node, e.visit ?? null);
    if (all) this.out.terminatedAll = true;
    const scope = all ? this.root() : this.byId.get(e.parent!)!;
    this.drop(e);
    for (const c of this.children(scope)) await this.cancel(c);
    if (scope.parent === null) return this.finish();
    for (const s of this.subscriptions(scope)) if (s.parent === scope.id) this.drop(s);
    delete scope.wait;
    await this.leave(scope);
  }

  private async throwEvent(e: Execution, node: Node): Promise<void> {
    const ev = node.event;
    if (ev?.kind === 'signal') this.throwSignal(ev.signal, ev.global);
    if (ev?.kind === 'link') {
      const target = Object.values(this.model.nodes).find((n) => n.scope === node.scope && n.type === 'intermediateCatchEvent' && n.event?.kind === 'link' && n.event.link === ev.link);
      if (!target) throw new StepFailed(`no link catch event named "${ev.link}"`, { id: node.id, type: node.type });
      this.record('end', node, e.visit ?? null);
      delete e.visit;
      e.node = target.id;
      return this.enter(e);
    }
    await this.leave(e);
  }

  /** a signal reaches this instance's waiting events at once, and the tenant's other instances through the engine */
  private throwSignal(name: string, global: boolean): void {
    if (global) this.out.signals.push({ name, variables: {} });
    const waiting = this.all().filter((x) => x.signal === name);
    for (const x of waiting) this.push(async () => {
      if (this.byId.has(x.id)) await fire(this, x);
    });
  }
}

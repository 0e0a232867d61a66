/// <reference path="./modules.d.ts" />
import * as Elements from 'bpmn-elements';
import BpmnModdle from 'bpmn-moddle';
import serializer, { deserialize, type SerializableContext, TypeResolver } from 'moddle-context-serializer';
import { checkExpression } from './expressions.js';
import { moddleExtensionsFor } from './moddle.js';

const typeResolver = TypeResolver({ ...Elements });

/** A model that cannot run: the parser's or the checker's message, for the person who uploaded it. */
export class BpmnInvalid extends Error {}

export interface CompiledProcess {
  /** the executable process's id: the definition key */
  key: string;
  name: string;
  /** the definition as moddle-context-serializer's JSON: engines are built from it, no XML is parsed again */
  compiled: string;
}

type Element = { $type: string; id?: string; name?: string; [k: string]: unknown };

/** the task types bpmn-engine runs as service tasks: each must name a server handler */
const SERVICE_TYPES = new Set(['bpmn:ServiceTask', 'bpmn:SendTask', 'bpmn:BusinessRuleTask']);
/** attributes that name code to run (Flowable, Camunda, Activiti): allowed only where they name a server handler */
const CODE_ATTRIBUTES = new Set(['class', 'delegateexpression', 'expression', 'script', 'scriptformat', 'resource']);
/** the only expression language a condition may declare: JUEL (the default when none is named) */
const EXPRESSION_LANGUAGES = new Set(['juel', 'http://www.w3.org/1999/xpath' /* BPMN's default, as some modelers write it */]);
/** properties that point at another element (walked where they are defined, not from here) */
const REFERENCES = new Set(['$parent', 'sourceRef', 'targetRef', 'default', 'attachedToRef', 'incoming', 'outgoing', 'bpmnElement', 'lanes', 'flowNodeRef', 'messageRef', 'signalRef', 'errorRef', 'escalationRef', 'calledElementRef', 'processRef', 'dataObjectRef', 'categoryValueRef', 'eventDefinitionRef', 'operationRef', 'structureRef', 'itemSubjectRef', 'resourceRef']);

function* walk(elements: readonly Element[] | undefined): Generator<Element> {
  for (const e of elements ?? []) {
    yield e;
    if (Array.isArray(e.flowElements)) yield* walk(e.flowElements as Element[]);
  }
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
const isNode = (v: unknown): v is Element => !!v && typeof v === 'object' && typeof (v as Element).$type === 'string';
const HAS_EXPRESSION = /[$#]\{/;
/** the longest text holding an expression a model may carry (a Flowable condition is a line, not a program) */
export const MAX_EXPRESSION_TEXT = 4000;

/** what bounds a model's run, checked where the model states it literally */
export interface CompileLimits {
  /** a step's activity bound (FLOW_STEP_MAX_ACTIVITIES): a multi-instance loop's iterations count as activities */
  maxActivities: number;
}

/** the name a service task's handler is registered under: flowable:class, flowable:delegateExpression or implementation */
export function serviceName(e: Record<string, unknown>): string | undefined {
  const fromExpression = (v: unknown) => text(v)?.replace(/^\$\{\s*|\s*\}$/g, '').replace(/^environment\.services\./, '');
  return text(e.class) ?? fromExpression(e.delegateExpression) ?? fromExpression(e.implementation) ?? fromExpression(e.expression);
}

/**
 * Refuses every construct that would run code the product does not own, anywhere in the process (its elements,
 * their event definitions, loop characteristics, and extension elements of any namespace): script tasks,
 * conditions in a scripting language, listeners, scripts, and class / delegate-expression / expression
 * attributes other than a service task's registered handler. Checks every expression can be evaluated.
 */
function checkNoCode(process: Element, services: ReadonlySet<string>, limits: CompileLimits): void {
  const seen = new Set<unknown>();
  const visit = (node: Element, owner: string) => {
    if (seen.has(node)) return;
    seen.add(node);
    const type = node.$type;
    const local = localName(type);
    const where = node.id && !type.startsWith('bpmn:FormalExpression') ? `${type.replace('bpmn:', '')} ${node.id}` : owner;
    const refuse = (why: string): never => {
      throw new BpmnInvalid(`${where}: ${why}`);
    };
    if (type === 'bpmn:ScriptTask') refuse('a script task runs code on the server, which runs no code of a model (use a service task with a server handler)');
    if (local.endsWith('listener')) refuse(`${type} runs code on the server (a class, an expression, a delegate or a script): listeners are not supported`);
    if (local === 'script' || local === 'connector') refuse(`${type} runs code on the server: scripts are not supported`);
    const language = text(node.language);
    if (language !== undefined && language.trim() !== '' && !EXPRESSION_LANGUAGES.has(language.trim().toLowerCase())) {
      refuse(`the expression language "${language}" is a script, and the server runs no code of a model (write the condition as \${…})`);
    }
    const isService = SERVICE_TYPES.has(type);
    if (isService) {
      const name = serviceName(node);
      if (!name) refuse('a service task names its handler (flowable:class or flowable:delegateExpression)');
      if (!services.has(name!)) refuse(`no server handler "${name}" (known: ${[...services].join(', ') || 'none'})`);
    }
    // a field (flowable:field) is a value handed to a handler, not code
    if (!isService && !local.endsWith('field')) {
      for (const attribute of ['class', 'delegateExpression', 'expression']) {
        if (text(node[attribute])) refuse(`${attribute}="${text(node[attribute])}" names code to run; only a service task may name a server handler`);
      }
    }
    if (type === 'bpmn:MultiInstanceLoopCharacteristics' || type === 'bpmn:StandardLoopCharacteristics') {
      const literal = text((node.loopCardinality as Element | undefined)?.body)?.trim() ?? node.loopMaximum;
      const iterations = Number(literal);
      if (literal !== undefined && literal !== '' && Number.isFinite(iterations) && iterations > limits.maxActivities) {
        refuse(`a loop of ${String(literal)} iterations runs more than the ${limits.maxActivities} activities a step may run`);
      }
    }
    const tooLong = (key: string, value: unknown) => {
      if (typeof value === 'string' && value.length > MAX_EXPRESSION_TEXT && HAS_EXPRESSION.test(value)) {
        refuse(`${key} holds an expression longer than ${MAX_EXPRESSION_TEXT} characters (${value.length})`);
      }
    };
    const foreign = (node.$attrs ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(foreign)) {
      if (!key.startsWith('xmlns') && CODE_ATTRIBUTES.has(localName(key))) refuse(`${key}="${String(foreign[key]).slice(0, 200)}" names code to run`);
      tooLong(key, foreign[key]);
    }
    for (const [key, value] of Object.entries(node)) {
      if (REFERENCES.has(key) || key === '$attrs' || key === 'name') continue;
      if (type === 'bpmn:Documentation' || type === 'bpmn:TextAnnotation') continue;
      tooLong(key, value);
      if (typeof value === 'string' && HAS_EXPRESSION.test(value)) {
        try {
          checkExpression(value);
        } catch (err) {
          refuse(`the expression ${value} cannot be read (${(err as Error).message})`);
        }
      }
      if (isNode(value)) visit(value, where);
      else if (Array.isArray(value)) for (const v of value) if (isNode(v)) visit(v, where);
    }
  };
  visit(process, `${process.$type.replace('bpmn:', '')} ${process.id}`);
}

/**
 * Gives an id to every element of the process that has none (a sequence flow may legally have none; the engine
 * routes by id and would hang), unique in the document.
 */
function nameAnonymous(process: Element, taken: Set<string>): void {
  const fresh = (base: string) => {
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    return id;
  };
  for (const e of walk(process.flowElements as Element[])) {
    if (e.id) continue;
    const ref = (v: unknown) => (isNode(v) && v.id ? v.id : '');
    e.id = e.$type === 'bpmn:SequenceFlow' ? fresh(`flow_${ref(e.sourceRef)}_${ref(e.targetRef)}`) : fresh(`${localName(e.$type)}_${taken.size + 1}`);
  }
}

type Parsed = Awaited<ReturnType<BpmnModdle['fromXML']>>;

/** A BPMN document read far enough to name its one executable process (a model saved while it is designed). */
async function readProcess(xml: string): Promise<{ parsed: Parsed; process: Element; roots: Element[] }> {
  let parsed: Parsed;
  try {
    parsed = await new BpmnModdle(moddleExtensionsFor(xml)).fromXML(xml);
  } catch (e) {
    throw new BpmnInvalid((e as Error).message.split('\n')[0]!.trim());
  }
  if (parsed.warnings.length) throw new BpmnInvalid(parsed.warnings.map((w) => w.message.replace(/\s+/g, ' ').trim()).join('; '));
  const root = parsed.rootElement as Element;
  if (root.$type !== 'bpmn:Definitions') throw new BpmnInvalid('the root element is not bpmn:definitions');
  const roots = (root.rootElements as Element[] | undefined) ?? [];
  const processes = roots.filter((e) => e.$type === 'bpmn:Process' && e.isExecutable === true);
  if (processes.length !== 1) {
    throw new BpmnInvalid(processes.length ? `a model holds one executable process, this one ${processes.length}` : 'no executable process (isExecutable="true")');
  }
  return { parsed, process: processes[0]!, roots };
}

/** The key and name of a BPMN document's executable process; the document's errors as `BpmnInvalid`. */
export async function processOf(xml: string): Promise<{ key: string; name: string }> {
  const { process } = await readProcess(xml);
  return { key: process.id!, name: process.name ?? process.id! };
}

/**
 * Parses and checks a BPMN 2.0 model before it is deployed: XML and BPMN errors, unresolved references, unknown
 * elements and duplicate ids (bpmn-moddle only warns of these; the engine would run them and hang), exactly one
 * executable process, no code to run (scripts, listeners, classes, scripted conditions), expressions that parse,
 * and service tasks whose handler the server has, in every process of the document; no expression text longer
 * than MAX_EXPRESSION_TEXT, no literal loop larger than a step's activity bound. Elements without an id get one.
 */
export async function compileBpmn(xml: string, services: ReadonlySet<string>, limits: CompileLimits = { maxActivities: 500 }): Promise<CompiledProcess> {
  const { parsed, process, roots } = await readProcess(xml);
  // every process and other root element is checked: a non-executable one is still code the document carries
  for (const root of roots) checkNoCode(root, services, limits);
  nameAnonymous(process, new Set(Object.keys((parsed as unknown as { elementsById: Record<string, unknown> }).elementsById ?? {})));
  const context = serializer(parsed as never, typeResolver);
  return { key: process.id!, name: process.name ?? process.id!, compiled: context.serialize() };
}

/** The definition an engine is built from (`sourceContext`). */
export function loadCompiled(compiled: string): SerializableContext {
  return deserialize(JSON.parse(compiled) as object, typeResolver);
}

import { checkExpression } from './expressions.js';
import { elementRef, type ElementRef, refuse } from './refusal.js';

/**
 * The check that a model runs no code the product does not own (issue 23), anywhere in the document: its
 * elements, event definitions, loop characteristics and extension elements of any namespace.
 */

export type Element = { $type: string; id?: string; name?: string; [k: string]: unknown };

/** the task types run as service tasks: each names a server handler */
export const SERVICE_TYPES = new Set(['bpmn:ServiceTask', 'bpmn:SendTask', 'bpmn:BusinessRuleTask']);
/** attributes that name code to run (Flowable, Camunda, Activiti): allowed only where they name a server handler */
const CODE_ATTRIBUTES = new Set(['class', 'delegateexpression', 'expression', 'script', 'scriptformat', 'resource']);
/** the only expression language a condition may declare: JUEL (the default when none is named) */
export const EXPRESSION_LANGUAGES = new Set(['juel', 'http://www.w3.org/1999/xpath' /* BPMN's default, as some modelers write it */]);
/** properties that point at another element (walked where they are defined, not from here) */
const REFERENCES = new Set(['$parent', 'sourceRef', 'targetRef', 'default', 'attachedToRef', 'incoming', 'outgoing', 'bpmnElement', 'lanes', 'flowNodeRef', 'messageRef', 'signalRef', 'errorRef', 'escalationRef', 'calledElementRef', 'processRef', 'dataObjectRef', 'categoryValueRef', 'eventDefinitionRef', 'operationRef', 'structureRef', 'itemSubjectRef', 'resourceRef', 'loopDataInputRef']);
/** the listeners a model may declare, when they name a registered handler */
const LISTENERS = new Set(['executionlistener', 'tasklistener']);

export const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
export const isNode = (v: unknown): v is Element => !!v && typeof v === 'object' && typeof (v as Element).$type === 'string';
const HAS_EXPRESSION = /[$#]\{/;
/** the longest text holding an expression a model may carry (a Flowable condition is a line, not a program) */
export const MAX_EXPRESSION_TEXT = 4000;

/** what bounds a model's run, checked where the model states it literally */
export interface CompileLimits {
  /** a step's activity bound (FLOW_STEP_MAX_ACTIVITIES): a multi-instance loop's iterations count as activities */
  maxActivities: number;
}

/** the name a handler is registered under: flowable:class, flowable:delegateExpression="${name}", implementation or expression */
export function handlerName(e: Record<string, unknown>): string | undefined {
  const fromExpression = (v: unknown) => text(v)?.trim().replace(/^[$#]\{\s*|\s*\}$/g, '').replace(/^environment\.services\./, '');
  return text(e.class)?.trim() || fromExpression(e.delegateExpression) || fromExpression(e.implementation) || fromExpression(e.expression);
}

function checkListener(node: Element, where: ElementRef, services: ReadonlySet<string>): void {
  const kind = localName(node.$type) === 'tasklistener' ? '任务监听器' : '执行监听器';
  const kindEn = localName(node.$type) === 'tasklistener' ? 'task listener' : 'execution listener';
  const article = kindEn.startsWith('e') ? 'an' : 'a';
  if (text(node.expression) || node.script) {
    refuse(where, `${kind}以表达式或脚本运行代码, 服务器不运行模型中的代码 (请用 class 或 delegateExpression 指定服务器处理程序)`,
      `${article} ${kindEn} with an expression or a script runs code, and the server runs no code of a model (name a server handler with class or delegateExpression)`);
  }
  const name = text(node.class)?.trim() || text(node.delegateExpression)?.trim().replace(/^[$#]\{\s*|\s*\}$/g, '');
  if (!name) refuse(where, `${kind}未指定处理程序 (class 或 delegateExpression)`, `${article} ${kindEn} names no handler (class or delegateExpression)`);
  if (!services.has(name!)) {
    const known = [...services].join(', ') || '—';
    refuse(where, `${kind}指定的服务器处理程序「${name}」不存在 (已有: ${known})`, `the ${kindEn}'s server handler "${name}" does not exist (known: ${known})`);
  }
}

/**
 * Refuses every construct that would run code the product does not own: script tasks, conditions in a
 * scripting language, scripts and connectors, listeners other than a registered handler, and class /
 * delegate-expression / expression attributes other than a service task's or a listener's registered handler.
 * Checks every expression can be evaluated.
 */
export function checkNoCode(root: Element, services: ReadonlySet<string>, limits: CompileLimits): void {
  const seen = new Set<unknown>();
  const visit = (node: Element, owner: ElementRef) => {
    if (seen.has(node)) return;
    seen.add(node);
    const type = node.$type;
    const local = localName(type);
    const where = node.id && !type.startsWith('bpmn:FormalExpression') ? elementRef(node) : owner;
    if (type === 'bpmn:ScriptTask') {
      refuse(where, '脚本任务会在服务器上运行代码, 服务器不运行模型中的代码 (请改用指定服务器处理程序的服务任务)',
        'a script task runs code on the server, which runs no code of a model (use a service task with a server handler)');
    }
    if (LISTENERS.has(local)) {
      checkListener(node, owner, services);
      return;
    }
    if (local.endsWith('listener')) refuse(where, `${type} 会运行代码, 不支持`, `${type} runs code on the server: it is not supported`);
    if (local === 'script' || local === 'connector') refuse(where, `${type} 会在服务器上运行代码, 不支持脚本`, `${type} runs code on the server: scripts are not supported`);
    const language = text(node.language);
    if (language !== undefined && language.trim() !== '' && !EXPRESSION_LANGUAGES.has(language.trim().toLowerCase())) {
      refuse(where, `表达式语言「${language}」是脚本, 服务器不运行模型中的代码 (请写成 \${…})`,
        `the expression language "${language}" is a script, and the server runs no code of a model (write the condition as \${…})`);
    }
    const isService = SERVICE_TYPES.has(type);
    if (isService) {
      const name = handlerName(node);
      if (!name) refuse(where, '服务任务须指定服务器处理程序 (flowable:class 或 flowable:delegateExpression)', 'a service task names its handler (flowable:class or flowable:delegateExpression)');
      if (/[().\s]/.test(name!) && !text(node.class)) {
        refuse(where, `表达式「${name}」调用方法, 服务器不运行模型中的代码 (请用 delegateExpression 指定已注册的服务器处理程序)`,
          `the expression "${name}" calls a method, and the server runs no code of a model (name a registered server handler with delegateExpression)`);
      }
      if (!services.has(name!)) {
        const known = [...services].join(', ') || '—';
        refuse(where, `服务器处理程序「${name}」不存在 (已有: ${known})`, `no server handler "${name}" (known: ${known})`);
      }
    }
    // a field (flowable:field) is a value handed to a handler, not code
    if (!isService && !local.endsWith('field')) {
      for (const attribute of ['class', 'delegateExpression', 'expression']) {
        const value = text(node[attribute]);
        if (value) refuse(where, `${attribute}="${value}" 指定了要运行的代码; 只有服务任务和监听器可以指定服务器处理程序`, `${attribute}="${value}" names code to run; only a service task or a listener may name a server handler`);
      }
    }
    if (type === 'bpmn:MultiInstanceLoopCharacteristics' || type === 'bpmn:StandardLoopCharacteristics') {
      const literal = text((node.loopCardinality as Element | undefined)?.body)?.trim() ?? node.loopMaximum;
      const iterations = Number(literal);
      if (literal !== undefined && literal !== '' && Number.isFinite(iterations) && iterations > limits.maxActivities) {
        refuse(where, `${String(literal)} 次的循环超过一步可运行的 ${limits.maxActivities} 个活动`, `a loop of ${String(literal)} iterations runs more than the ${limits.maxActivities} activities a step may run`);
      }
    }
    const tooLong = (key: string, value: unknown) => {
      if (typeof value === 'string' && value.length > MAX_EXPRESSION_TEXT && HAS_EXPRESSION.test(value)) {
        refuse(where, `${key} 中的表达式超过 ${MAX_EXPRESSION_TEXT} 个字符 (${value.length})`, `${key} holds an expression longer than ${MAX_EXPRESSION_TEXT} characters (${value.length})`);
      }
    };
    const foreign = (node.$attrs ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(foreign)) {
      if (!key.startsWith('xmlns') && CODE_ATTRIBUTES.has(localName(key))) {
        refuse(where, `${key}="${String(foreign[key]).slice(0, 200)}" 指定了要运行的代码`, `${key}="${String(foreign[key]).slice(0, 200)}" names code to run`);
      }
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
          refuse(where, `表达式 ${value} 无法读取 (${(err as Error).message})`, `the expression ${value} cannot be read (${(err as Error).message})`);
        }
      }
      if (isNode(value)) visit(value, where);
      else if (Array.isArray(value)) for (const v of value) if (isNode(v)) visit(v, where);
    }
  };
  visit(root, elementRef(root));
}

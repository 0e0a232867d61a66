/// <reference path="./modules.d.ts" />
import { buildProcess } from './build.js';
import type { ProcessModel } from './model.js';
import { moddleExtensionsFor } from './moddle.js';
import { checkNoCode, type CompileLimits, type Element, localName } from './noCode.js';
import { BpmnInvalid, elementRef, refuse } from './refusal.js';

export { BpmnInvalid } from './refusal.js';
export { MAX_EXPRESSION_TEXT, handlerName as serviceName } from './noCode.js';

export interface CompiledProcess {
  /** the executable process's id: the definition key */
  key: string;
  name: string;
  /** the runtime's model as JSON (model.ts) */
  compiled: string;
  /** the names of the messages that start it */
  startMessages: string[];
}

type Warning = { message: string; property?: string; element?: { $type?: string }; value?: unknown };
type Parsed = { rootElement: unknown; warnings: Warning[]; elementsById?: Record<string, unknown> };

/** references Flowable reads as texts when they name no element: a multi-instance's variable, an error's code */
const TEXT_REFERENCES = new Set(['bpmn:loopDataInputRef', 'bpmn:errorRef']);

/**
 * bpmn-moddle's warnings that Flowable does not stop at: a diagram's reference to a missing element, an
 * attribute of a known namespace this parser has no descriptor for (it is kept, and checked for code), an
 * extension element of a kind it does not know (Flowable Design's `work-form-field-validation`: dropped, unless
 * its name says it runs code), and a `loopDataInputRef` or `errorRef` naming a variable or an error code rather
 * than an element (kept in `textRefs`).
 */
function harmless(w: Warning, textRefs: Map<unknown, string>): boolean {
  if (w.element?.$type?.startsWith('bpmndi:') || w.property?.startsWith('bpmndi:')) return true;
  if (w.message.startsWith('unknown attribute')) return true;
  if (w.property && TEXT_REFERENCES.has(w.property) && typeof w.value === 'string') {
    textRefs.set(w.element, w.value);
    return true;
  }
  const unknownType = /unknown type <([^>]+)>/.exec(w.message)?.[1];
  return !!unknownType && unknownType.includes(':') && !unknownType.startsWith('bpmn:') && !/listener|script|connector/i.test(unknownType);
}

/** a parser warning as a refusal: the element it is about (the one holding a reference, or the XML element) and why */
function refuseWarning(w: Warning): never {
  const text = w.message.replace(/\s+/g, ' ').trim();
  const holder = w.element as { $type?: string; id?: unknown } | undefined;
  const element = holder?.$type && typeof holder.id === 'string' ? elementRef(holder as { $type: string; id: string }) : null;
  const unresolved = /^unresolved reference <([^>]*)>/.exec(text)?.[1];
  if (unresolved !== undefined) {
    const property = (w.property ?? '').replace(/^\w+:/, '');
    return refuse(element, `${property} 引用的元素「${unresolved}」不存在`, `${property} refers to "${unresolved}", which the model does not have`);
  }
  const tag = /^unparsable content <([^>]+)>/.exec(text)?.[1];
  const nested = /nested error: (.*)$/.exec(text)?.[1] ?? text;
  const duplicate = /duplicate ID <([^>]+)>/.exec(nested)?.[1];
  if (tag && duplicate) return refuse({ id: duplicate, type: tag.replace(/^\w+:/, '') }, '元素 id 重复', 'the element id appears twice');
  const unknown = /unknown type <([^>]+)>/.exec(nested)?.[1];
  if (tag && unknown) return refuse(null, `不认识的元素 <${tag}>`, `the element <${tag}> is not BPMN this server reads`);
  return refuse(element, `模型有误: ${text}`, `the model is not valid BPMN: ${text}`);
}

async function parse(xml: string): Promise<{ parsed: Parsed; root: Element; textRefs: Map<unknown, string> }> {
  // loaded at the first model read, not at start (bench/RESULTS.md, "The embedded database's idle memory")
  const { default: BpmnModdle } = await import('bpmn-moddle');
  let parsed: Parsed;
  try {
    parsed = await new BpmnModdle(moddleExtensionsFor(xml)).fromXML(xml) as unknown as Parsed;
  } catch (e) {
    const why = (e as Error).message.split('\n')[0]!.trim();
    return refuse(null, `XML 无法解析: ${why}`, `the XML cannot be read: ${why}`);
  }
  const textRefs = new Map<unknown, string>();
  const problem = parsed.warnings.find((w) => !harmless(w, textRefs));
  if (problem) refuseWarning(problem);
  const root = parsed.rootElement as Element;
  if (root.$type !== 'bpmn:Definitions') refuse(null, '根元素不是 bpmn:definitions', 'the root element is not bpmn:definitions');
  return { parsed, root, textRefs };
}

/** a process is executable unless it says isExecutable="false" (Flowable's default) */
const executable = (roots: Element[]) => roots.filter((e) => e.$type === 'bpmn:Process' && e.isExecutable !== false);

/** The keys and names of a BPMN document's executable processes; the document's errors as `BpmnInvalid`. */
export async function processesOf(xml: string): Promise<Array<{ key: string; name: string }>> {
  const { root } = await parse(xml);
  const processes = executable((root.rootElements as Element[] | undefined) ?? []);
  if (!processes.length) refuse(null, '模型中没有可执行的流程', 'the model holds no executable process');
  return processes.map((p) => ({ key: p.id!, name: (p.name as string | undefined) ?? p.id! }));
}

/**
 * Gives an id to every element that has none (a sequence flow may legally have none; the runtime routes by
 * id), unique in the document and the same at every compile of it.
 */
function nameAnonymous(process: Element, taken: Set<string>): void {
  const fresh = (base: string) => {
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    return id;
  };
  let counter = 0;
  const walk = (elements: Element[] | undefined) => {
    for (const e of elements ?? []) {
      counter++;
      if (!e.id) {
        const ref = (v: unknown) => (v && typeof v === 'object' && (v as Element).id ? (v as Element).id : '');
        e.id = e.$type === 'bpmn:SequenceFlow' ? fresh(`flow_${ref(e.sourceRef)}_${ref(e.targetRef)}`) : fresh(`${localName(e.$type)}_${counter}`);
      }
      if (Array.isArray(e.flowElements)) walk(e.flowElements as Element[]);
    }
  };
  walk(process.flowElements as Element[]);
}

/**
 * Parses and checks a BPMN 2.0 document before it is deployed, and compiles each of its executable processes:
 * XML and BPMN errors, unresolved references and unknown elements, no code to run (scripts, listeners other
 * than registered handlers, classes, scripted conditions), expressions that parse, handlers the server has, in
 * every process of the document; then what the runtime does not run is refused, naming the element.
 */
export async function compileBpmn(xml: string, services: ReadonlySet<string>, limits: CompileLimits = { maxActivities: 500 }): Promise<CompiledProcess[]> {
  const { parsed, root, textRefs } = await parse(xml);
  const roots = (root.rootElements as Element[] | undefined) ?? [];
  // every root element is checked: a non-executable process is still code the document carries
  for (const r of roots) checkNoCode(r, services, limits);
  const processes = executable(roots);
  if (!processes.length) refuse(null, '模型中没有可执行的流程', 'the model holds no executable process');
  const keys = new Set<string>();
  return processes.map((p) => {
    if (keys.has(p.id!)) refuse(null, `流程标识「${p.id}」重复`, `the process key "${p.id}" appears twice`);
    keys.add(p.id!);
    nameAnonymous(p, new Set(Object.keys(parsed.elementsById ?? {})));
    const model = buildProcess(p, root, textRefs);
    return { key: model.key, name: model.name, compiled: JSON.stringify(model), startMessages: model.startMessages };
  });
}

/** A stored definition's model. */
export function loadModel(compiled: string): ProcessModel {
  return JSON.parse(compiled) as ProcessModel;
}

export const isBpmnInvalid = (e: unknown): e is BpmnInvalid => e instanceof BpmnInvalid;

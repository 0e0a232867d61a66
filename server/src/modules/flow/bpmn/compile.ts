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

const SERVICE_TYPES = new Set(['bpmn:ServiceTask', 'bpmn:SendTask']);

function* walk(elements: readonly Element[] | undefined): Generator<Element> {
  for (const e of elements ?? []) {
    yield e;
    if (Array.isArray(e.flowElements)) yield* walk(e.flowElements as Element[]);
  }
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const bodyOf = (v: unknown): string | undefined => text((v as { body?: unknown } | undefined)?.body);

/** the name a service task's handler is registered under: flowable:class, flowable:delegateExpression or implementation */
export function serviceName(e: Record<string, unknown>): string | undefined {
  const fromExpression = (v: unknown) => text(v)?.replace(/^\$\{\s*|\s*\}$/g, '').replace(/^environment\.services\./, '');
  return text(e.class) ?? fromExpression(e.delegateExpression) ?? fromExpression(e.implementation) ?? fromExpression(e.expression);
}

type Parsed = Awaited<ReturnType<BpmnModdle['fromXML']>>;

/** A BPMN document read far enough to name its one executable process (a model saved while it is designed). */
async function readProcess(xml: string): Promise<{ parsed: Parsed; process: Element }> {
  let parsed: Parsed;
  try {
    parsed = await new BpmnModdle(moddleExtensionsFor(xml)).fromXML(xml);
  } catch (e) {
    throw new BpmnInvalid((e as Error).message.split('\n')[0]!.trim());
  }
  if (parsed.warnings.length) throw new BpmnInvalid(parsed.warnings.map((w) => w.message.replace(/\s+/g, ' ').trim()).join('; '));
  const root = parsed.rootElement as Element;
  if (root.$type !== 'bpmn:Definitions') throw new BpmnInvalid('the root element is not bpmn:definitions');
  const processes = ((root.rootElements as Element[] | undefined) ?? []).filter((e) => e.$type === 'bpmn:Process' && e.isExecutable === true);
  if (processes.length !== 1) {
    throw new BpmnInvalid(processes.length ? `a model holds one executable process, this one ${processes.length}` : 'no executable process (isExecutable="true")');
  }
  return { parsed, process: processes[0]! };
}

/** The key and name of a BPMN document's executable process; the document's errors as `BpmnInvalid`. */
export async function processOf(xml: string): Promise<{ key: string; name: string }> {
  const { process } = await readProcess(xml);
  return { key: process.id!, name: process.name ?? process.id! };
}

/**
 * Parses and checks a BPMN 2.0 model before it is deployed: XML and BPMN errors, unresolved references, unknown
 * elements and duplicate ids (bpmn-moddle only warns of these; the engine would run them and hang), exactly one
 * executable process, expressions that parse, and service tasks whose handler the server has.
 */
export async function compileBpmn(xml: string, services: ReadonlySet<string>): Promise<CompiledProcess> {
  const { parsed, process } = await readProcess(xml);
  for (const e of walk(process.flowElements as Element[])) {
    const where = `${e.$type.replace('bpmn:', '')} ${e.id ?? ''}`.trim();
    const expressions = [
      bodyOf(e.conditionExpression),
      text(e.assignee), text(e.candidateUsers), text(e.candidateGroups),
      ...((e.eventDefinitions as Element[] | undefined) ?? []).flatMap((d) => [bodyOf(d.timeDuration), bodyOf(d.timeDate), bodyOf(d.timeCycle)]),
    ].filter((x): x is string => !!x);
    for (const x of expressions) {
      try {
        checkExpression(x);
      } catch (err) {
        throw new BpmnInvalid(`${where}: the expression ${x} cannot be read (${(err as Error).message})`);
      }
    }
    if (SERVICE_TYPES.has(e.$type)) {
      const name = serviceName(e);
      if (!name) throw new BpmnInvalid(`${where}: a service task names its handler (flowable:class or flowable:delegateExpression)`);
      if (!services.has(name)) throw new BpmnInvalid(`${where}: no server handler "${name}" (known: ${[...services].join(', ') || 'none'})`);
    }
  }
  const context = serializer(parsed as never, typeResolver);
  return { key: process.id!, name: process.name ?? process.id!, compiled: context.serialize() };
}

/** The definition an engine is built from (`sourceContext`). */
export function loadCompiled(compiled: string): SerializableContext {
  return deserialize(JSON.parse(compiled) as object, typeResolver);
}

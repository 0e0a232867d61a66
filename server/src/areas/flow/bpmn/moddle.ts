import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export type ModdleDescriptor = { name: string; prefix: string; uri: string } & Record<string, unknown>;

const camunda = require('camunda-bpmn-moddle/resources/camunda.json') as ModdleDescriptor;

/** The same attributes (assignee, candidateUsers, candidateGroups, class, delegateExpression, formKey…) under another namespace. */
function renamed(name: string, prefix: string, uri: string): ModdleDescriptor {
  const text = JSON.stringify({ ...camunda, name, prefix, uri }).replaceAll('"camunda:', `"${prefix}:`);
  return JSON.parse(text) as ModdleDescriptor;
}

const EXTENSIONS: Record<string, ModdleDescriptor> = {
  flowable: renamed('Flowable', 'flowable', 'http://flowable.org/bpmn'),
  activiti: renamed('Activiti', 'activiti', 'http://activiti.org/bpmn'),
  camunda,
};

/**
 * The extension namespace a model uses for its user-task and service-task attributes: Flowable's (what BladeX's
 * modeler writes), Activiti's or Camunda's. Without a descriptor bpmn-moddle drops such attributes silently;
 * with one they reach the engine unprefixed (`behaviour.assignee`). The three extend the same BPMN types, so a
 * parser takes one: the one whose namespace the document declares.
 */
export function moddleExtensionsFor(xml: string): Record<string, ModdleDescriptor> {
  const used = Object.entries(EXTENSIONS).find(([, d]) => xml.includes(d.uri));
  const [prefix, descriptor] = used ?? ['flowable', EXTENSIONS.flowable!];
  return { [prefix]: descriptor };
}

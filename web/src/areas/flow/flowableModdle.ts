/**
 * The `flowable:` attributes the console's modeler reads and writes (bpmn-js `moddleExtensions: { flowable }`), the
 * same ones the server's parser knows (server/src/modules/flow/bpmn/moddle.ts, Camunda's descriptor renamed).
 * Without it bpmn-js would keep unknown attributes as they are but could not set them.
 */
export const flowableDescriptor = {
  name: 'Flowable',
  uri: 'http://flowable.org/bpmn',
  prefix: 'flowable',
  xml: { tagAlias: 'lowerCase' },
  associations: [],
  types: [
    {
      name: 'Assignable',
      extends: ['bpmn:UserTask'],
      properties: [
        { name: 'assignee', isAttr: true, type: 'String' },
        { name: 'candidateUsers', isAttr: true, type: 'String' },
        { name: 'candidateGroups', isAttr: true, type: 'String' },
        { name: 'dueDate', isAttr: true, type: 'String' },
        { name: 'priority', isAttr: true, type: 'String' },
      ],
    },
    {
      name: 'FormSupported',
      isAbstract: true,
      extends: ['bpmn:StartEvent', 'bpmn:UserTask'],
      properties: [{ name: 'formKey', isAttr: true, type: 'String' }],
    },
    {
      name: 'Initiator',
      isAbstract: true,
      extends: ['bpmn:StartEvent'],
      properties: [{ name: 'initiator', isAttr: true, type: 'String' }],
    },
    {
      name: 'ServiceTaskLike',
      extends: ['bpmn:ServiceTask', 'bpmn:SendTask'],
      properties: [
        { name: 'class', isAttr: true, type: 'String' },
        { name: 'delegateExpression', isAttr: true, type: 'String' },
        { name: 'expression', isAttr: true, type: 'String' },
        { name: 'resultVariable', isAttr: true, type: 'String' },
      ],
    },
  ],
  enumerations: [],
};

// The modeler's chunk (imported lazily by BpmnModelerDialog): bpmn-js's Modeler with its styles and icon font, and
// the flowable attributes it reads and writes.
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css';

export { default as Modeler } from 'bpmn-js/lib/Modeler';
export { flowableDescriptor } from './flowableModdle';
export { translateModule } from './bpmnTranslate';

// The diagram viewer's chunk (imported lazily by FlowChartDialog): bpmn-js, its styles and the markers' styles
// load with it, never with the list pages.
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './flowChart.css';

export { default as NavigatedViewer } from 'bpmn-js/lib/NavigatedViewer';

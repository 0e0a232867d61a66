/**
 * The few bpmn-js services the workflow screens use, as far as they use them (`viewer.get<Canvas>('canvas')`).
 * diagram-js is bpmn-js's own dependency, not the console's: its types are not imported from there.
 */

/** A BPMN model object (bpmn-moddle): its own properties and, through `get`, extension attributes (`flowable:assignee`). */
export interface ModdleElement {
  $type: string;
  id?: string;
  name?: string;
  get(name: string): unknown;
  [key: string]: unknown;
}

/** A shape or connection on the canvas. */
export interface DiagramElement {
  id: string;
  type: string;
  businessObject: ModdleElement;
  /** a label's owner (labels are elements of their own) */
  labelTarget?: DiagramElement;
  /** the root element's flag in a process diagram: the process itself */
  parent?: DiagramElement | null;
}

export interface Canvas {
  addMarker(element: string | DiagramElement, marker: string): void;
  removeMarker(element: string | DiagramElement, marker: string): void;
  zoom(scale?: number | 'fit-viewport'): number;
  getRootElement(): DiagramElement;
}

export interface EventBus {
  on<E = unknown>(events: string | string[], callback: (event: E) => unknown): void;
  off(events: string | string[], callback: (...args: never[]) => unknown): void;
}

export interface ElementRegistry {
  get(id: string): DiagramElement | undefined;
  getGraphics(id: string): SVGElement | undefined;
}

export interface CommandStack {
  canUndo(): boolean;
  canRedo(): boolean;
  undo(): void;
  redo(): void;
  clear(): void;
}

export interface Modeling {
  updateProperties(element: DiagramElement, properties: Record<string, unknown>): void;
  updateModdleProperties(element: DiagramElement, moddleElement: ModdleElement, properties: Record<string, unknown>): void;
}

export interface Moddle {
  create(type: string, properties?: Record<string, unknown>): ModdleElement;
}

export interface Selection {
  get(): DiagramElement[];
}

/** `element.hover` / `element.out` / `element.click` */
export interface ElementEvent {
  element: DiagramElement;
  gfx: SVGElement;
}

declare module 'bpmn-moddle' {
  interface ModdleWarning { message: string }
  interface ModdleElement { $type: string; id?: string; name?: string; [key: string]: unknown }
  export interface FromXmlResult { rootElement: ModdleElement; warnings: ModdleWarning[]; elementsById: Record<string, ModdleElement>; references: unknown[] }
  export default class BpmnModdle {
    constructor(packages?: Record<string, unknown>);
    fromXML(xml: string, typeName?: string): Promise<FromXmlResult>;
  }
}

import type { Lang } from '@console/contract';

/** a text in both of the console's languages */
export interface LocalText {
  zh: string;
  en: string;
}

/** an element as a refusal names it: its id and BPMN type (`userTask`) */
export interface ElementRef {
  id: string;
  type: string;
}

const typeName = (type: string) => {
  const bare = type.replace(/^bpmn:/, '');
  return bare.charAt(0).toLowerCase() + bare.slice(1);
};

/** `userTask` → `UserTask`, as BPMN names its elements */
export const typeLabel = (type: string) => type.charAt(0).toUpperCase() + type.slice(1);

export const elementRef = (node: { id?: unknown; $type: string }): ElementRef => ({ id: typeof node.id === 'string' ? node.id : '?', type: typeName(node.$type) });

/**
 * A model that cannot run, and why, naming the element (its id and type) in both languages: the deploy's 400
 * speaks the caller's language.
 */
export class BpmnInvalid extends Error {
  constructor(readonly reason: LocalText, readonly element: ElementRef | null = null) {
    super(element ? `${typeLabel(element.type)} ${element.id}: ${reason.en}` : reason.en);
  }

  text(lang: Lang): string {
    const reason = this.reason[lang];
    if (!this.element) return reason;
    return lang === 'en' ? `${typeLabel(this.element.type)} ${this.element.id}: ${reason}` : `${typeLabel(this.element.type)}「${this.element.id}」: ${reason}`;
  }
}

export const refuse = (element: ElementRef | null, zh: string, en: string): never => {
  throw new BpmnInvalid({ zh, en }, element);
};

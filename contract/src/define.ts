import type { ActionDefs } from './action.js';
import type { CrudCall, FieldDef, Fields, ResourceDef } from './resourceDef.js';

/**
 * The zod-free part of resource.ts that the console's first page needs (the notice definition, display
 * names, required marks): kept apart so that the first page does not load the input schemas, and zod.
 */
export function defineResource<F extends Fields, A extends ActionDefs = Record<never, never>>(def: ResourceDef<F, A>): ResourceDef<F, A> & { actions: A } {
  return { ...def, actions: def.actions ?? ({} as A) };
}

export function isRequired(f: FieldDef): boolean {
  return f.required !== undefined && f.required !== false;
}

/** The display-value key answered beside a dictionary-coded field (`category` → `categoryName`). */
export function dictNameKey(field: string): string {
  return `${field}Name`;
}

/** The full paths of a resource's engine calls (`routes` renames them). */
export function crudPaths(def: Pick<ResourceDef, 'path' | 'routes'>): Record<CrudCall, string> {
  const name = (call: CrudCall) => `${def.path}/${def.routes?.[call] ?? call}`;
  return { list: name('list'), detail: name('detail'), submit: name('submit'), remove: name('remove') };
}

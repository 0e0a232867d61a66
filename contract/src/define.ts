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

/** A dictionary item as a `dictPrefixed` field stores it: `flow` and `1` → `flow_1` (BladeX's flow route key). */
export function prefixedDictKey(code: string, dictKey: string): string {
  return `${code}_${dictKey}`;
}

/** The dictKey of a value of a dictionary-coded field: `flow_1` → `1` where the field is `dictPrefixed`, else the value. */
export function dictKeyOf(f: Pick<FieldDef, 'dict' | 'dictPrefixed'>, value: string): string {
  const prefix = f.dict && f.dictPrefixed ? `${f.dict}_` : undefined;
  return prefix && value.startsWith(prefix) ? value.slice(prefix.length) : value;
}

/** The full paths of a resource's engine calls (`routes` renames them). */
export function crudPaths(def: Pick<ResourceDef, 'path' | 'routes'>): Record<CrudCall, string> {
  const name = (call: CrudCall) => `${def.path}/${def.routes?.[call] ?? call}`;
  return { list: name('list'), detail: name('detail'), submit: name('submit'), remove: name('remove') };
}

/** The preview of a remove (`RemoveImpact`), next to the remove call and under its permission. */
export function removeImpactPath(def: Pick<ResourceDef, 'path' | 'routes'>): string {
  return `${crudPaths(def).remove}-impact`;
}

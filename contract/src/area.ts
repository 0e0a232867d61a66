import type { I18nText } from './i18n.js';
import type { MenuDirectory } from './menus.js';

/** What the registry needs of a resource definition: its menu code, which is also its key. */
interface AreaResource {
  code: string;
}

/**
 * A business area's manifest (docs/architecture.md, "Areas"): what its folder `areas/<name>/` adds to the
 * contract. The registry (`areas/index.ts`) lists the manifests; the contract's `resources`, `messages` and
 * menu directories are merged from them.
 */
export interface Area<
  N extends string = string,
  R extends Record<string, AreaResource> = Record<string, AreaResource>,
  M extends Record<string, I18nText> = Record<string, I18nText>,
> {
  /** the folder's name, the same in contract, server and web */
  name: N;
  /** its resources, keyed by menu code, in the order the console lists them */
  resources: R;
  /** its own messages (the generic ones are the core's, `messages.ts`) */
  messages: M;
  /** the directories of the menu tree (menus.md) it opens */
  menus: readonly MenuDirectory[];
}

// `@__NO_SIDE_EFFECTS__`: the console's first page reaches the area folders (the notice definition): a
// manifest or a merge nobody uses must not keep every definition in its chunk (web/README.md, "First page")

/*#__NO_SIDE_EFFECTS__*/
export function defineArea<
  const N extends string,
  R extends Record<string, AreaResource> = Record<never, never>,
  M extends Record<string, I18nText> = Record<never, never>,
>(area: { name: N; resources?: R; messages?: M; menus?: readonly MenuDirectory[] }): Area<N, R, M> {
  return { name: area.name, resources: area.resources ?? ({} as R), messages: area.messages ?? ({} as M), menus: area.menus ?? [] };
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Flat<T> = { readonly [K in keyof T]: T[K] };

/** Every area's resources as one object type: each key keeps its definition's exact type. */
export type AreasResources<A extends readonly Area[]> = Flat<UnionToIntersection<A[number]['resources']>>;

/** The core's messages and every area's, as one object type: each key keeps its literal texts. */
export type AreasMessages<C extends Record<string, I18nText>, A extends readonly Area[]> = Flat<C & UnionToIntersection<A[number]['messages']>>;

/** One object of the areas' parts, in the areas' order; a key declared twice is a mistake of the registry. */
function mergeDisjoint(parts: readonly (readonly [owner: string, part: Record<string, unknown>])[], what: string): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  const owners = new Map<string, string>();
  for (const [owner, part] of parts) {
    for (const [key, value] of Object.entries(part)) {
      const first = owners.get(key);
      if (first) throw new Error(`${what} ${key} is declared by both ${first} and ${owner}`);
      owners.set(key, owner);
      merged[key] = value;
    }
  }
  return merged;
}

/*#__NO_SIDE_EFFECTS__*/
export function areasResources<const A extends readonly Area[]>(areas: A): AreasResources<A> {
  for (const area of areas) {
    for (const [key, def] of Object.entries(area.resources)) {
      if (def.code !== key) throw new Error(`area ${area.name}: the resource under ${key} has the code ${def.code}`);
    }
  }
  return mergeDisjoint(areas.map((a) => [`area ${a.name}`, a.resources] as const), 'resource') as AreasResources<A>;
}

/*#__NO_SIDE_EFFECTS__*/
export function areasMessages<C extends Record<string, I18nText>, const A extends readonly Area[]>(core: C, areas: A): AreasMessages<C, A> {
  const parts = [['the core', core] as const, ...areas.map((a) => [`area ${a.name}`, a.messages] as const)];
  return mergeDisjoint(parts, 'message') as AreasMessages<C, A>;
}

/*#__NO_SIDE_EFFECTS__*/
export function areasMenus(areas: readonly Area[]): readonly MenuDirectory[] {
  mergeDisjoint(areas.map((a) => [`area ${a.name}`, Object.fromEntries(a.menus.map((d) => [d.code, d]))] as const), 'menu directory');
  return areas.flatMap((a) => a.menus);
}

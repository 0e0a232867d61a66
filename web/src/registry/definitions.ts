import { resources, type ResourceDef } from '@console/contract';
import type { CustomPageLoader, CustomPages } from '../shell/area';

/**
 * The resource definitions, by menu route and by code. This module (and with it every definition) is
 * its own chunk, loaded with the first menu page or the first reference field: the first page after
 * sign-in stays without it (web/README.md, "Code splitting").
 */
const all: readonly ResourceDef[] = Object.values(resources) as readonly ResourceDef[];

const byRoute = new Map<string, ResourceDef>();
const byCode = new Map<string, ResourceDef>();
const withinByParent = new Map<string, ResourceDef[]>();
for (const def of all) {
  byCode.set(def.code, def);
  if (def.menu) byRoute.set(def.menu.route, def);
  if (def.within) withinByParent.set(def.within.parent, [...(withinByParent.get(def.within.parent) ?? []), def]);
}
const NONE: readonly ResourceDef[] = [];

export function allDefinitions(): readonly ResourceDef[] {
  return all;
}

export function definitionByRoute(route: string): ResourceDef | undefined {
  return byRoute.get(route);
}

export function definitionByCode(code: string): ResourceDef | undefined {
  return byCode.get(code);
}

/** The resources worked on within a row of `code` (their `within.parent`), in definition order. */
export function definitionsWithin(code: string): readonly ResourceDef[] {
  return withinByParent.get(code) ?? NONE;
}

/** How a menu route is rendered: the generic list page of its definition, a custom page, or nothing (404). */
export type PagePlan = { kind: 'generic'; def: ResourceDef } | { kind: 'custom'; def: ResourceDef; load: CustomPageLoader };

export function pagePlanFor(route: string, customPages: CustomPages): PagePlan | undefined {
  const def = byRoute.get(route);
  if (!def) return undefined;
  const load = def.page === 'custom' && Object.hasOwn(customPages, def.code) ? customPages[def.code] : undefined;
  return load ? { kind: 'custom', def, load } : { kind: 'generic', def };
}

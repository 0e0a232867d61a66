import { resources, type ResourceDef } from '@console/contract';
import { customPages, type CustomPageLoader } from './pages';

/**
 * The resource definitions, by menu route and by code. This module (and with it every definition) is
 * its own chunk, loaded with the first menu page or the first reference field: the first page after
 * sign-in stays without it (web/README.md, "Code splitting").
 */
const all: readonly ResourceDef[] = Object.values(resources) as readonly ResourceDef[];

const byRoute = new Map<string, ResourceDef>();
const byCode = new Map<string, ResourceDef>();
for (const def of all) {
  byCode.set(def.code, def);
  if (def.menu) byRoute.set(def.menu.route, def);
}

export function allDefinitions(): readonly ResourceDef[] {
  return all;
}

export function definitionByRoute(route: string): ResourceDef | undefined {
  return byRoute.get(route);
}

export function definitionByCode(code: string): ResourceDef | undefined {
  return byCode.get(code);
}

/** How a menu route is rendered: the generic list page of its definition, a custom page, or nothing (404). */
export type PagePlan = { kind: 'generic'; def: ResourceDef } | { kind: 'custom'; def: ResourceDef; load: CustomPageLoader };

export function pagePlanFor(route: string): PagePlan | undefined {
  const def = byRoute.get(route);
  if (!def) return undefined;
  const load = def.page === 'custom' && Object.hasOwn(customPages, def.code) ? customPages[def.code] : undefined;
  return load ? { kind: 'custom', def, load } : { kind: 'generic', def };
}

import type { ComponentType } from 'react';
import type { AreaRoute } from '../shell/area';

/** An area's page at a fixed path; one that shows generic lists or forms gets the definitions with it. */
export async function loadAreaRoute(route: AreaRoute): Promise<ComponentType> {
  if (!route.resources) return route.load();
  const [page, { withDefinitions }] = await Promise.all([route.load(), import('./resolvePage')]);
  return withDefinitions(page);
}

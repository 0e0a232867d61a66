import type { ComponentType } from 'react';
import { Navigate } from 'react-router';
import type { CustomPages } from '../shell/area';
import { ResourcePage } from '../resource/ResourcePage';
import { DefinitionLookupContext, type DefinitionLookup } from '../resource/definitionLookup';
import { definitionByCode, definitionByRoute, definitionsWithin, pagePlanFor } from './definitions';

const lookup: DefinitionLookup = { byCode: definitionByCode, within: definitionsWithin };

/** A page with the definitions its generic lists and forms look up (references, sub-resources). */
export function withDefinitions<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  return function WithDefinitions(props: P) {
    return (
      <DefinitionLookupContext.Provider value={lookup}>
        <Page {...props} />
      </DefinitionLookupContext.Provider>
    );
  };
}

function NotFound() {
  return <Navigate to="/404" replace />;
}

/**
 * The page of a menu route: the custom page of its definition (`page: 'custom'`, an area's manifest), else
 * the generic list page; a route no definition names goes to /404. Either gets the definitions it looks up.
 */
export async function resolvePage(route: string, loadCustomPages: () => Promise<CustomPages>): Promise<ComponentType> {
  // the areas' lists of custom pages load only for a definition that has one: a generic list page needs none
  const custom = definitionByRoute(route)?.page === 'custom';
  const plan = pagePlanFor(route, custom ? await loadCustomPages() : {});
  if (!plan) return NotFound;
  const { def } = plan;
  if (plan.kind === 'custom') {
    const { default: Custom } = await plan.load();
    return withDefinitions(function CustomResourcePage() {
      return <Custom def={def} />;
    });
  }
  return withDefinitions(function GenericResourcePage() {
    return <ResourcePage def={def} />;
  });
}

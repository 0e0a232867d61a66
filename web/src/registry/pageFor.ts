import type { ComponentType, LazyExoticComponent } from 'react';
import type { CustomPages } from '../shell/area';
import { lazy } from '../shell/chunkLoad';

/**
 * Menu path → page, derived from the resource definitions (`menu.route`; `page: 'custom'` picks a page of
 * an area's manifest). The definitions are not in the first page's code: the lazy page loads the chunk that
 * holds them (registry/resolvePage.tsx, with the generic list page) and renders the page it finds there,
 * or sends a path no definition names to /404. `lazy` is React's, with the 120 s ChunkLoadError guard.
 */
const pages = new Map<string, LazyExoticComponent<ComponentType>>();

export function pageFor(path: string, menuCode: string, customPages: () => Promise<CustomPages>): LazyExoticComponent<ComponentType> {
  let page = pages.get(path);
  if (!page) {
    page = lazy(async () => {
      // On a first visit the areas' lists of custom pages load beside the definitions, and the custom page
      // of the menu's code (a resource's code is its menu code) as soon as they are in: not one after the
      // other. A generic page does not wait for them.
      const lists = customPages();
      lists.then((found) => (Object.hasOwn(found, menuCode) ? found[menuCode]!() : undefined)).catch(() => undefined);
      const { resolvePage } = await import('./resolvePage');
      return { default: await resolvePage(path, () => lists) };
    });
    pages.set(path, page);
  }
  return page;
}

import type { AreaManifest, CustomPageLoader, CustomPages } from '../shell/area';

const loaded = new WeakMap<readonly AreaManifest[], Promise<CustomPages>>();

/**
 * The console's own pages of the definitions marked `page: 'custom'`, by resource code, from the areas'
 * manifests (each area's lazy `pages` list, loaded once). Every other definition with a `menu` gets the
 * generic list page at `menu.route` (registry/definitions.ts). Two areas claiming one code is an error.
 */
export function customPagesOf(areas: readonly AreaManifest[]): Promise<CustomPages> {
  let pages = loaded.get(areas);
  if (!pages) {
    pages = Promise.all(areas.map(async (area) => ({ area: area.name, pages: area.pages ? (await area.pages()).pages : {} }))).then(merge);
    loaded.set(areas, pages);
    // a failed chunk load is tried again on the next page
    pages.catch(() => loaded.delete(areas));
  }
  return pages;
}

function merge(lists: readonly { area: string; pages: CustomPages }[]): CustomPages {
  const pages: Record<string, CustomPageLoader> = {};
  const owners = new Map<string, string>();
  for (const list of lists) {
    for (const [code, load] of Object.entries(list.pages)) {
      const owner = owners.get(code);
      if (owner !== undefined) throw new Error(`the custom page of "${code}" is registered by both ${owner} and ${list.area}`);
      owners.set(code, list.area);
      pages[code] = load;
    }
  }
  return pages;
}

import { resources, type ResourceDef } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { loadCustomPages } from '../shell/MenuPage';
import { customPagesOf } from './customPages';
import { allDefinitions, definitionByCode, definitionByRoute, definitionsWithin, pagePlanFor } from './definitions';

const defs = Object.values(resources) as ResourceDef[];
const customPages = await loadCustomPages();

describe('pages derived from the definitions', () => {
  it('knows every definition', () => {
    expect(allDefinitions()).toHaveLength(defs.length);
    for (const def of defs) expect(definitionByCode(def.code)).toBe(def);
  });

  it('gives every definition with a menu a page at its route', () => {
    const withMenu = defs.filter((d) => d.menu);
    expect(withMenu.length).toBeGreaterThan(0);
    for (const def of withMenu) {
      expect(definitionByRoute(def.menu!.route)).toBe(def);
      const plan = pagePlanFor(def.menu!.route, customPages);
      expect(plan?.def).toBe(def);
      expect(plan?.kind).toBe(def.page === 'custom' ? 'custom' : 'generic');
    }
  });

  it('has no two definitions on one route', () => {
    const routes = defs.flatMap((d) => (d.menu ? [d.menu.route] : []));
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('registers the page of every custom definition, and only those', () => {
    const custom = defs.filter((d) => d.page === 'custom').map((d) => d.code).sort();
    for (const code of custom) expect(typeof customPages[code], `custom page of ${code}`).toBe('function');
    expect(Object.keys(customPages).sort()).toEqual(custom);
  });

  it('refuses a custom page claimed by two areas', async () => {
    const pages = async () => ({ pages: { x: customPages.user! } });
    await expect(customPagesOf([{ name: 'a', pages }, { name: 'b', pages }])).rejects.toThrow(/"x".*a and b/);
  });

  it('lists the resources worked on within each row', () => {
    for (const def of defs) expect(definitionsWithin(def.code)).toEqual(defs.filter((d) => d.within?.parent === def.code));
  });

  it('has no page for a route no definition names', () => {
    expect(pagePlanFor('/system/nothing', customPages)).toBeUndefined();
    expect(pagePlanFor('/desk', customPages)).toBeUndefined();
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken } from '../api.js';
import { useBrowser } from '../browser.js';
import { signIn, waitFor } from '../flows.js';

/**
 * Every screen of the platform administrator's menu opens: for each menu route the server answers, the page
 * shows its content (a table or the page's root test id), never the 403/404/500 pages, and the browser
 * console logs no error on the way. A new resource's screen is covered as soon as its menu is seeded.
 */
const b = useBrowser();

interface MenuRoute {
  code: string;
  name: string;
  path: string;
  category: number;
  children?: MenuRoute[];
}

function leaves(routes: MenuRoute[]): MenuRoute[] {
  return routes.flatMap((r) => (r.children?.length ? leaves(r.children) : r.category === 1 ? [r] : []));
}

let routes: MenuRoute[] = [];
const problems: string[] = [];

beforeAll(async () => {
  const token = await apiToken(b.baseUrl, '000000', 'admin', 'admin');
  expect(token, 'the platform administrator signs in').toBeTruthy();
  const res = await api<MenuRoute[]>(b.baseUrl, token, '/api/blade-system/menu/routes');
  expect(res.code).toBe(200);
  // the console's own pages: not the links that open elsewhere in a new window (monitor › api_doc → /api/docs)
  routes = leaves(res.data).filter((r) => r.path.startsWith('/') && (r as MenuRoute & { isOpen?: number }).isOpen !== 2 && !r.path.startsWith('/api/'));

  b.page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error on ${new URL(b.page.url()).pathname}: ${m.text()}`);
  });
  b.page.on('pageerror', (e) => problems.push(`uncaught error on ${new URL(b.page.url()).pathname}: ${e.message}`));
  b.page.on('response', (r) => {
    if (r.status() >= 500) problems.push(`${r.status()} from ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  await signIn(b.page, b.baseUrl);
});

/** What the page shows once it settled: its content, an error page, or nothing yet. */
async function shows(): Promise<'content' | 'error' | null> {
  const page = b.page;
  if (await page.locator('[data-testid^="error-page-"]').filter({ visible: true }).count()) return 'error';
  const content = page.locator('[data-testid="resource-page"], [data-testid$="-page"]:not([data-testid^="error-page-"]), .ant-table').filter({ visible: true });
  return (await content.count()) > 0 ? 'content' : null;
}

describe('every menu page', () => {
  it('the administrator has menu routes to walk (the desk and the system directories at least)', () => {
    expect(routes.map((r) => r.path)).toEqual(expect.arrayContaining(['/desk/notice', '/system/param']));
  });

  it('opens every menu route with its content, no error page and no console error', async () => {
    expect(routes.length).toBeGreaterThan(0);
    const failed: string[] = [];
    for (const route of routes) {
      const before = problems.length;
      await b.page.goto(`${b.baseUrl}${route.path}`);
      let state: 'content' | 'error' | null = null;
      try {
        await waitFor(b.page, `${route.path} to show its content`, async () => (state = await shows()) !== null, 20_000);
      } catch {
        /* reported below */
      }
      const path = new URL(b.page.url()).pathname;
      if (state !== 'content') failed.push(`${route.code} ${route.path}: shows ${state ?? 'nothing'} at ${path}`);
      else if (path !== route.path) failed.push(`${route.code} ${route.path}: landed on ${path}`);
      // the table's first page loads with the screen: let it answer before looking at the console
      await b.page.waitForLoadState('networkidle').catch(() => undefined);
      failed.push(...problems.slice(before).map((p) => `${route.code}: ${p}`));
    }
    expect(failed, failed.join("\n")).toEqual([]);
    // every screen takes a second or two to open and settle: the budget grows with the menu (over 45 screens)
  }, 300_000);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.js';
import { signIn } from '../flows.js';

/**
 * What a first visit loads (issue 26; sizes, not times): every script a page fetches with the browser cache off,
 * counted as gzip level 6 of the built file (what a reverse proxy serves). The first page after sign-in stays
 * under 350 KB; a list page opened directly loads the table it shows, not the add/edit form, the drawers or the
 * dialogs an action opens; the dashboard's figures come without ECharts' code.
 */
const b = useBrowser();
const DIST = new URL('../../web/dist', import.meta.url).pathname;
const FIRST_PAGE_KB = 350;
// before the first row: the shell, ProTable with its search form and the screen, 720–747 KB after issue 26's split
// (~836 KB before it, when the list page's chunk held the form, the drawers and every ProField value type)
const LIST_PAGE_KB = 780;
const FIRST_ROW = '[data-testid="resource-table"] tbody tr.ant-table-row';

interface Script { name: string; gzip: number }

/**
 * The scripts a page asked for, the cache off, from its navigation until `selector` came into the DOM (with
 * `untilIdle`, until the network went idle after that): the page's own resource timing, so that what a page
 * fetches on its own afterwards (the list's preloaded form and drawers) is told apart by when it started.
 */
async function scriptsOf(page: Page, path: string, selector: string, untilIdle = false): Promise<Script[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript((sel: string) => {
    const w = window as unknown as { shownAt?: number };
    new MutationObserver((_m, observer) => {
      if (!document.querySelector(sel)) return;
      w.shownAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  }, selector);
  try {
    await page.goto(`${b.baseUrl}${path}`);
    await page.waitForFunction(() => (window as unknown as { shownAt?: number }).shownAt !== undefined);
    if (untilIdle) await page.waitForLoadState('networkidle');
    const names = await page.evaluate((all: boolean) => {
      const shownAt = (window as unknown as { shownAt: number }).shownAt;
      return performance.getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname.endsWith('.js') && (all || e.startTime < shownAt))
        .map((e) => new URL(e.name).pathname);
    }, untilIdle);
    return [...new Set(names)].map((name) => ({ name, gzip: gzipSync(readFileSync(join(DIST, name)), { level: 6 }).length }));
  } finally {
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    await cdp.detach();
  }
}

const totalKb = (scripts: Script[]) => scripts.reduce((s, f) => s + f.gzip, 0) / 1024;
const named = (scripts: Script[], chunk: string) => scripts.filter((s) => new RegExp(`/${chunk}-[\\w-]+\\.js$`).test(s.name));
const listing = (scripts: Script[]) => scripts.map((s) => `${s.name} ${(s.gzip / 1024).toFixed(1)} KB`).join('\n');

beforeAll(async () => {
  await signIn(b.page, b.baseUrl);
});

describe('the first visit of a page loads what it shows', () => {
  it(`the first page after sign-in: under ${FIRST_PAGE_KB} KB of scripts`, async () => {
    const page = await b.newPage();
    const scripts = await scriptsOf(page, '/wel/index', '[data-testid="side-menu"]', true);
    expect(totalKb(scripts), listing(scripts)).toBeLessThan(FIRST_PAGE_KB);
  });

  for (const path of ['/authority/role', '/device/info', '/desk/notice']) {
    it(`${path} opened directly: under ${LIST_PAGE_KB} KB, without the form, drawers and dialogs`, async () => {
      const page = await b.newPage();
      const scripts = await scriptsOf(page, path, '[data-testid="resource-table"] tbody tr:not(.ant-table-measure-row)');
      expect(named(scripts, 'ResourcePage'), listing(scripts)).toHaveLength(1);
      expect(totalKb(scripts), listing(scripts)).toBeLessThan(LIST_PAGE_KB);
      // the parts an action opens load once the list has shown its rows (preloaded), not before
      for (const part of ['ResourceFormModal', 'DetailDrawer', 'WithinDrawer', 'ImportExport', 'RoleGrantDialog', 'ColorPicker']) {
        expect(named(scripts, part), `${part} on the first visit of ${path}:\n${listing(scripts)}`).toEqual([]);
      }
    });
  }

  it('the add form and the grant dialog still open on 角色管理 (their chunks load when asked for)', async () => {
    const page = await b.newPage();
    await page.goto(`${b.baseUrl}/authority/role`);
    await page.locator(FIRST_ROW).first().waitFor();
    await page.getByTestId('resource-add').click();
    await page.getByTestId('resource-form-submit').waitFor();
    await page.getByTestId('resource-form-cancel').click();
    await page.getByTestId('resource-form-submit').waitFor({ state: 'hidden' });
    await page.locator(FIRST_ROW).first().locator('input[type="checkbox"]').check();
    await page.getByTestId('role-grant').click();
    await page.locator('.ant-modal .ant-tree').first().waitFor();
  });

  it('the dashboard page holds its figures, ECharts comes in a chunk of its own for the charts', async () => {
    const page = await b.newPage();
    const scripts = await scriptsOf(page, '/wel/dashboard', '[data-testid="dash-chart-signins"] canvas', true);
    const [dashboard] = named(scripts, 'DashboardPage');
    expect(dashboard, listing(scripts)).toBeDefined();
    expect(dashboard!.gzip / 1024, listing(scripts)).toBeLessThan(20);
    expect(named(scripts, 'EChartCanvas'), listing(scripts)).toHaveLength(1);
  });
});

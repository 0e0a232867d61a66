import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { signIn, waitFor } from '../flows.js';
import { listLayoutProblems, shownPage } from '../layout.js';

/**
 * The screens with a page of their own (not stamped by the generic list page) laid out as the generic one is, at a
 * laptop's sizes in both languages: no card past the window, the toolbar inside its card, the title on one line,
 * no header cut, and the decisive columns (the definitions' `key` fields) in view without scrolling sideways.
 */
const b = useBrowser();

interface Screen {
  path: string;
  keys?: { zh: string[]; en: string[] };
}

const SCREENS: Screen[] = [
  { path: '/system/user', keys: { zh: ['用户姓名', '所属角色', '用户状态'], en: ['Real name', 'Roles', 'Status'] } },
  { path: '/device/ota', keys: { zh: ['任务状态', '设备数', '成功', '失败'], en: ['State', 'Devices', 'Succeeded', 'Failed'] } },
  { path: '/device/emergency', keys: { zh: ['开锁码数量', '状态'], en: ['Codes', 'State'] } },
  { path: '/production/batch', keys: { zh: ['数量', '状态'], en: ['Quantity', 'State'] } },
  { path: '/device/control', keys: { zh: ['状态'], en: ['State'] } },
  { path: '/device/info' },
  { path: '/device/notice' },
  { path: '/system/dict' },
  { path: '/system/dictbiz' },
  { path: '/system/tenant' },
  { path: '/system/tenantpackage' },
  { path: '/system/client' },
  { path: '/system/topmenu' },
  { path: '/authority/role' },
  { path: '/production/factory' },
  { path: '/production/cit' },
  { path: '/product/info' },
  { path: '/product/auth' },
  { path: '/flow/model' },
  { path: '/flow/manager' },
  { path: '/flow/follow' },
  { path: '/work/start' },
  { path: '/work/todo' },
];

const SIZES = [{ width: 1280, height: 720 }, { width: 1440, height: 900 }] as const;

beforeAll(async () => {
  await signIn(b.page, b.baseUrl);
});

async function setLang(lang: 'zh' | 'en'): Promise<void> {
  await b.page.getByTestId('user-menu').click();
  await b.page.getByTestId(`lang-${lang}`).click();
  await waitFor(b.page, `the console in ${lang}`, async () => (await b.page.evaluate(() => document.documentElement.lang)).startsWith(lang));
}

/** Opens a screen and waits for its table's header (or the page's content when it has no table). */
async function open(path: string): Promise<void> {
  await b.page.goto(`${b.baseUrl}${path}`);
  await waitFor(b.page, `${path} to show`, async () =>
    (await shownPage(b.page).locator('.ant-table-thead th, .ant-card, form, .master-detail').count()) > 0, 20_000);
  // the columns are fitted once the table is measured, and the rows' buttons once the first page answered
  await b.page.waitForLoadState('networkidle').catch(() => undefined);
}

describe('custom screens at laptop sizes', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`lays out every custom screen at 1280 and 1440 px in ${lang}`, async () => {
      await b.page.goto(`${b.baseUrl}/wel/index`);
      await setLang(lang);
      const problems: string[] = [];
      try {
        // each screen opened once at the first size, then the window resized: the layout follows a resize too
        for (const screen of SCREENS) {
          for (const [i, size] of SIZES.entries()) {
            await b.page.setViewportSize(size);
            if (i === 0) await open(screen.path);
            let found: string[] = [];
            // the fit follows the table's measure: give it the time a resize takes, no more
            await waitFor(b.page, `${screen.path} laid out`, async () => (found = await listLayoutProblems(shownPage(b.page), screen.keys?.[lang])).length === 0, 3_000).catch(() => undefined);
            if (found.length) {
              problems.push(...found.map((p) => `${lang} ${size.width} ${screen.path}: ${p}`));
              await b.page.screenshot({ path: join(ARTIFACTS, `page-layout-${lang}-${size.width}-${screen.path.replace(/\//g, '_')}.png`) });
            }
          }
        }
      } finally {
        await b.page.setViewportSize({ width: 1440, height: 900 });
        await setLang('zh');
      }
      expect(problems, problems.join('\n')).toEqual([]);
    }, 300_000);
  }

  it('keeps the search card in the definition\'s order when the columns move: 待办事务 at 1280 px starts with 流程名称', async () => {
    await b.page.setViewportSize({ width: 1280, height: 720 });
    try {
      await open('/work/todo');
      const search = shownPage(b.page).locator('.ant-pro-query-filter');
      await search.locator('#search_processName').waitFor();
      const labels = await search.locator('.ant-form-item-label label').filter({ visible: true }).allInnerTexts();
      expect(labels[0]).toBe('流程名称');
    } finally {
      await b.page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('cuts no sidebar label in English at 1280 px: a long one wraps', async () => {
    await b.page.setViewportSize({ width: 1280, height: 720 });
    await b.page.goto(`${b.baseUrl}/wel/index`);
    await setLang('en');
    const cut: string[] = [];
    try {
      const groups = b.page.locator('[data-testid="side-menu"] .ant-menu-submenu-title');
      for (let i = 0; i < await groups.count(); i++) {
        const group = groups.nth(i);
        if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
        await b.page.waitForTimeout(250);
        cut.push(...await b.page.locator('[data-testid="side-menu"] .ant-menu-title-content').evaluateAll((els) => els
          .filter((el) => (el as HTMLElement).offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.textContent ?? '')));
      }
      await b.page.screenshot({ path: join(ARTIFACTS, 'page-layout-en-1280-sidebar.png') });
    } finally {
      await b.page.setViewportSize({ width: 1440, height: 900 });
      await setLang('zh');
    }
    expect([...new Set(cut)]).toEqual([]);
  });
});

import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken } from '../api.js';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { confirm, openMenu, signIn, signOutLocally, tableRows, toast, waitFor, clickRowAction } from '../flows.js';

/** The header's bell: unread counts from the server, mark one, mark a tab all read, kept per user across reloads. */

const b = useBrowser();
const stamp = Date.now();
const titles = {
  approval: `bell 批转 ${stamp}`,
  forward: `bell 转发 ${stamp}`,
  instruction: `bell 指示 ${stamp}`,
  release: `bell 发布 ${stamp}`,
  future: `bell 未发布 ${stamp}`,
};
let token: string;

const badge = async (page: Page) => Number(await page.getByTestId('notice-badge').getAttribute('data-count'));
const tabCount = async (page: Page, tab: string) => Number(await page.getByTestId(`notice-tab-${tab}`).getAttribute('data-count'));
const activeItem = (page: Page, title: string) =>
  page.getByTestId('notice-popover').locator('.ant-tabs-tabpane-active [data-testid="notice-item"]', { hasText: title });
const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `notice-bell-${name}.png`) });

async function serverUnread(t: string): Promise<number> {
  const res = await api<{ total: number }>(b.baseUrl, t, '/api/blade-desk/notice/unread-count');
  expect(res.code).toBe(200);
  return res.data.total;
}

async function openBell(page: Page, tab: 'mail' | 'message' | 'notice'): Promise<void> {
  if (!(await page.getByTestId('notice-popover').isVisible().catch(() => false))) await page.getByTestId('tool-notice').click();
  await page.getByTestId('notice-popover').waitFor();
  await page.getByTestId(`notice-tab-${tab}`).click();
}

async function closeBell(page: Page): Promise<void> {
  await page.getByTestId('tool-notice').click();
  await page.getByTestId('notice-popover').waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  token = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  expect(token).toBeTruthy();
  // start from nothing unread, then add one notice per tab group (and one not yet released)
  expect((await api(b.baseUrl, token, '/api/blade-desk/notice/read-all', { method: 'POST' })).code).toBe(200);
  for (const [title, category, releaseTime] of [
    [titles.approval, 2, '2026-02-01 08:00:00'], [titles.forward, 3, '2026-02-02 08:00:00'],
    [titles.instruction, 4, '2026-02-03 08:00:00'], [titles.release, 1, '2026-02-04 08:00:00'],
    [titles.future, 1, '2999-01-01 00:00:00'],
  ] as const) {
    const r = await api(b.baseUrl, token, '/api/blade-desk/notice/submit', { method: 'POST', json: { title, category, releaseTime, content: `<p>${title}</p>` } });
    expect(r.code).toBe(200);
  }
  await signIn(b.page, b.baseUrl);
});

describe('notice bell', () => {
  it('counts the unread released notices on the badge and per tab', async () => {
    await waitFor(b.page, 'four unread', async () => (await badge(b.page)) === 4);
    expect(await serverUnread(token)).toBe(4);
    await openBell(b.page, 'mail');
    await waitFor(b.page, 'tab counts', async () =>
      (await tabCount(b.page, 'mail')) === 2 && (await tabCount(b.page, 'message')) === 1 && (await tabCount(b.page, 'notice')) === 1);
    expect(await b.page.getByTestId('notice-tab-mail').innerText()).toContain('(2)');
    await activeItem(b.page, titles.approval).waitFor();
    expect(await activeItem(b.page, titles.approval).getAttribute('data-unread')).toBe('true');
    expect(await activeItem(b.page, titles.forward).getAttribute('data-unread')).toBe('true');
    expect(await activeItem(b.page, titles.approval).locator('.ant-badge-dot').count()).toBe(1);
    await openBell(b.page, 'notice');
    await activeItem(b.page, titles.release).waitFor();
    expect(await b.page.getByTestId('notice-popover').innerText()).not.toContain(titles.future);
    await shot(b.page, '1-unread');
  });

  it('marks a notice read when it is opened', async () => {
    await openBell(b.page, 'mail');
    await activeItem(b.page, titles.approval).click();
    const detail = b.page.getByTestId('resource-detail');
    await detail.getByText(titles.approval).first().waitFor();
    await waitFor(b.page, 'three unread', async () => (await badge(b.page)) === 3);
    expect(await serverUnread(token)).toBe(3);
    await b.page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await openBell(b.page, 'mail');
    await waitFor(b.page, 'the read item', async () => (await activeItem(b.page, titles.approval).getAttribute('data-unread')) === 'false');
    expect(await activeItem(b.page, titles.approval).locator('.ant-badge-dot').count()).toBe(0);
    expect(await activeItem(b.page, titles.forward).getAttribute('data-unread')).toBe('true');
    await waitFor(b.page, 'one unread mail', async () => (await tabCount(b.page, 'mail')) === 1);
    await shot(b.page, '2-one-read');
  });

  it('marks a tab all read', async () => {
    await openBell(b.page, 'mail');
    await b.page.getByTestId('notice-read-all').click();
    await waitFor(b.page, 'mail all read', async () => (await tabCount(b.page, 'mail')) === 0 && (await badge(b.page)) === 2);
    await waitFor(b.page, 'no unread mail item', async () => (await activeItem(b.page, titles.forward).getAttribute('data-unread')) === 'false');
    expect(await b.page.getByTestId('notice-read-all').isDisabled()).toBe(true);
    expect(await tabCount(b.page, 'message')).toBe(1);
    expect(await serverUnread(token)).toBe(2);
    await shot(b.page, '3-tab-read');
    await closeBell(b.page);
  });

  it('keeps the read state on the server across a reload and a new sign-in', async () => {
    await b.page.reload();
    await waitFor(b.page, 'two unread after reload', async () => (await badge(b.page)) === 2);
    await openBell(b.page, 'mail');
    await waitFor(b.page, 'mail read after reload', async () => (await activeItem(b.page, titles.forward).getAttribute('data-unread')) === 'false');
    await openBell(b.page, 'message');
    expect(await activeItem(b.page, titles.instruction).getAttribute('data-unread')).toBe('true');
    await closeBell(b.page);
    // nothing kept in the browser: a fresh sign-in sees the same state
    await signOutLocally(b.page, b.baseUrl);
    await b.page.evaluate(() => localStorage.clear());
    await signIn(b.page, b.baseUrl);
    await waitFor(b.page, 'two unread after signing in again', async () => (await badge(b.page)) === 2);
  });

  it('is per user: another user\'s bell counts their own unread notices, and their reads leave this one alone', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl, '541742', 'admin', 'admin');
    const demo = (await apiToken(b.baseUrl, '541742', 'admin', 'admin'))!;
    const own = `bell demo ${stamp}`;
    const created = await api<{ id: string }>(b.baseUrl, demo, '/api/blade-desk/notice/submit', {
      method: 'POST', json: { title: own, category: 4, releaseTime: '2026-02-05 08:00:00' },
    });
    expect(created.code).toBe(200);
    await b.page.reload();
    const expected = await serverUnread(demo);
    expect(expected).toBeGreaterThanOrEqual(1);
    await waitFor(b.page, 'the demo admin\'s own count', async () => (await badge(b.page)) === expected);
    await openBell(b.page, 'message');
    await activeItem(b.page, own).waitFor();
    expect(await b.page.getByTestId('notice-popover').innerText()).not.toContain(titles.instruction);
    await activeItem(b.page, own).click();
    await waitFor(b.page, 'one fewer for the demo admin', async () => (await badge(b.page)) === expected - 1);
    await b.page.keyboard.press('Escape');
    await shot(b.page, '4-other-user');
    // the notice goes again, with its read rows
    expect((await api(b.baseUrl, demo, `/api/blade-desk/notice/remove?ids=${created.data.id}`, { method: 'POST' })).code).toBe(200);

    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl);
    await waitFor(b.page, 'the platform admin still has two unread', async () => (await badge(b.page)) === 2);
    expect(await serverUnread(token)).toBe(2);
  });

  it('asks the server again when the bell opens, after a notice was added elsewhere', async () => {
    const r = await api(b.baseUrl, token, '/api/blade-desk/notice/submit', {
      method: 'POST', json: { title: `bell later ${stamp}`, category: 1, releaseTime: '2026-02-06 08:00:00' },
    });
    expect(r.code).toBe(200);
    // opening the bell asks the server again
    await openBell(b.page, 'notice');
    await waitFor(b.page, 'three unread', async () => (await badge(b.page)) === 3 && (await tabCount(b.page, 'notice')) === 2);
    await b.page.getByTestId('notice-read-all').click();
    await waitFor(b.page, 'one unread left', async () => (await badge(b.page)) === 1);
    await closeBell(b.page);
  });

  it('updates the badge when the notice page removes an unread notice', async () => {
    await openMenu(b.page, 'desk', 'notice');
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.locator('#search_title').fill(titles.instruction);
    await b.page.getByTestId('resource-search-submit').click();
    await waitFor(b.page, 'one row', async () => (await tableRows(b.page).count()) === 1 && (await tableRows(b.page).first().innerText()).includes(titles.instruction));
    await clickRowAction(tableRows(b.page).first(), 'resource-row-delete');
    await confirm(b.page);
    await toast(b.page, '删除成功');
    await waitFor(b.page, 'nothing unread', async () => (await badge(b.page)) === 0);
    expect(await serverUnread(token)).toBe(0);
    await shot(b.page, '5-removed');
  });
});

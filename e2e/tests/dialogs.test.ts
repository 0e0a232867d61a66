import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken } from '../api.js';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { openMenu, signIn, tableRows, toast, waitFor, clickRowAction } from '../flows.js';

// The browser runs in New York while the server shows its times in Asia/Shanghai (TZ_DISPLAY default).
const BROWSER_ZONE = 'America/New_York';
const SERVER_ZONE = 'Asia/Shanghai';

const b = useBrowser({ timezoneId: BROWSER_ZONE });

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `dialogs-${name}.png`) });

const formDialog = (page: Page) => page.locator('.ant-modal-wrap').filter({ has: page.getByTestId('resource-form') });
const discardConfirm = (page: Page) => page.locator('.ant-modal-confirm', { hasText: /当前表单有未保存的修改|Discard your changes/ });
/** The discard confirm open and holding the focus, as a person sees it before pressing the next key. */
async function confirmReady(page: Page): Promise<void> {
  await discardConfirm(page).waitFor();
  await waitFor(page, 'the focus in the confirm', () => page.evaluate(() => !!document.activeElement?.closest('.ant-modal-confirm')));
}
const openPicker = (page: Page) => page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');

/** The id (or test id) of the focused element, and whether it is inside the add/edit dialog. */
async function focus(page: Page): Promise<{ id: string; testId: string; inForm: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const wrap = el?.closest('.ant-modal-wrap');
    return { id: el?.id ?? '', testId: el?.getAttribute('data-testid') ?? '', inForm: !!wrap?.querySelector('[data-testid="resource-form"]') };
  });
}

/** Wall time of an instant in a zone, `YYYY-MM-DD HH:mm:ss`. */
function wallTime(at: Date, zone: string): string {
  const p: Record<string, string> = {};
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  for (const part of f.formatToParts(at)) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** Whether a wall time (read as UTC) lies between two others. */
function between(text: string, from: string, to: string): boolean {
  const ms = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`);
  return ms(text) >= ms(from) && ms(text) <= ms(to);
}

async function openAdd(page: Page): Promise<void> {
  await page.getByTestId('resource-add').click();
  await page.locator('#resource_title').waitFor();
  await waitFor(page, 'the first field focused', async () => (await focus(page)).id === 'resource_title');
}

/** Closes the add/edit dialog from any state: discarding what it holds. */
async function discardForm(page: Page): Promise<void> {
  if ((await formDialog(page).count()) === 0 || !(await formDialog(page).isVisible())) return;
  await page.getByTestId('resource-form-cancel').click();
  await formDialog(page).waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  // the demo tenant's administrator: notices (title, category, release time, rich text content)
  await signIn(b.page, b.baseUrl, '541742', 'admin', 'admin');
  await openMenu(b.page, 'desk', 'notice');
  await b.page.getByTestId('resource-page').waitFor();
});

afterAll(async () => {
  // leave the demo tenant's notices as they were for the other test files (notice.test.ts counts them)
  const token = await apiToken(b.baseUrl, '541742', 'admin', 'admin');
  const page = await api<{ records: { id: string; title: string }[] }>(b.baseUrl, token, `/api/blade-desk/notice/list?title=${encodeURIComponent('时区检查')}&size=500`);
  const ids = page.data.records.map((r) => r.id);
  if (ids.length) await api(b.baseUrl, token, `/api/blade-desk/notice/remove?ids=${ids.join(',')}`, { method: 'POST' });
});

describe('menu search keyboard', () => {
  it('Ctrl K then typing at once: the keys land in the search box, not in the page field behind it', async () => {
    const pageField = b.page.locator('#search_title');
    await pageField.click();
    // no wait between the shortcut and the typing: the palette's chunk has never been loaded
    await b.page.keyboard.press('Control+k');
    await b.page.keyboard.type('通知');
    const box = b.page.getByTestId('menu-search-input');
    await waitFor(b.page, 'the typed text in the search box', async () => (await box.inputValue()) === '通知');
    expect(await pageField.inputValue()).toBe('');
    await waitFor(b.page, 'the focus in the box', async () => (await focus(b.page)).testId === 'menu-search-input');
    await b.page.getByTestId('menu-search-item').first().waitFor();
    await shot(b.page, 'menu-search-typed');
    await b.page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden' });

    // a second time, with the palette loaded
    await pageField.click();
    await b.page.keyboard.press('Control+k');
    await b.page.keyboard.type('参数');
    await waitFor(b.page, 'a fresh box with the new text', async () => (await box.inputValue()) === '参数');
    expect(await pageField.inputValue()).toBe('');
    await b.page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden' });
  });
});

describe('add/edit dialog keyboard', () => {
  it('focuses the first field when the dialog opens', async () => {
    await openAdd(b.page);
    await shot(b.page, 'first-field-focused');
    // a dialog without changes closes on Esc at once
    await b.page.keyboard.press('Escape');
    await formDialog(b.page).waitFor({ state: 'hidden' });
    expect(await discardConfirm(b.page).count()).toBe(0);
  });

  it('Esc with the date picker open closes only the picker; the form keeps its values', async () => {
    await openAdd(b.page);
    await b.page.keyboard.type('春节放假安排');
    await b.page.getByTestId('richtext-content').click();
    await b.page.keyboard.type('二月九日起');
    await b.page.locator('#resource_releaseTime').click();
    await openPicker(b.page).waitFor();
    await shot(b.page, 'date-picker-open');
    await b.page.keyboard.press('Escape');
    await openPicker(b.page).waitFor({ state: 'hidden' });
    expect(await formDialog(b.page).isVisible()).toBe(true);
    expect(await discardConfirm(b.page).count()).toBe(0);
    expect(await b.page.locator('#resource_title').inputValue()).toBe('春节放假安排');
    expect(await b.page.getByTestId('richtext-content').innerText()).toContain('二月九日起');
  });

  it('Esc with the rich text link popover open closes only the popover', async () => {
    const url = b.page.getByTestId('richtext-link-url');
    await b.page.getByTestId('richtext-content').click();
    await b.page.getByTestId('richtext-link').click();
    await url.waitFor();
    await waitFor(b.page, 'the focus in the link box', async () => (await focus(b.page)).testId === 'richtext-link-url');
    await shot(b.page, 'link-popover-open');
    await b.page.keyboard.press('Escape');
    await url.waitFor({ state: 'hidden' });
    expect(await formDialog(b.page).isVisible()).toBe(true);
    expect(await discardConfirm(b.page).count()).toBe(0);
    expect(await b.page.locator('#resource_title').inputValue()).toBe('春节放假安排');
    expect(await b.page.getByTestId('richtext-content').innerText()).toContain('二月九日起');
  });

  it('Esc on a changed form asks first; cancel keeps the input and gives the focus back to the dialog', async () => {
    await b.page.locator('#resource_title').click();
    await b.page.keyboard.press('Escape');
    await confirmReady(b.page);
    expect(await discardConfirm(b.page).innerText()).toContain('当前表单有未保存的修改，确定关闭吗?');
    await shot(b.page, 'discard-confirm');
    await b.page.getByTestId('confirm-cancel').click();
    await discardConfirm(b.page).waitFor({ state: 'detached' });
    expect(await formDialog(b.page).isVisible()).toBe(true);
    expect(await b.page.locator('#resource_title').inputValue()).toBe('春节放假安排');
    // the focus is back in the dialog: typing goes on in the field, and Esc reaches the dialog again
    await waitFor(b.page, 'the focus back in the dialog', async () => (await focus(b.page)).inForm);
    expect((await focus(b.page)).id).toBe('resource_title');
    await b.page.keyboard.type('（修订）');
    expect(await b.page.locator('#resource_title').inputValue()).toBe('春节放假安排（修订）');
    await b.page.keyboard.press('Escape');
    await confirmReady(b.page);
    await b.page.keyboard.press('Escape');
    await discardConfirm(b.page).waitFor({ state: 'detached' });
    await waitFor(b.page, 'the focus back in the dialog after Esc on the confirm', async () => (await focus(b.page)).inForm);
    expect(await b.page.locator('#resource_title').inputValue()).toBe('春节放假安排（修订）');
  });

  it('× and a click outside ask too; confirming closes and the next opening is empty', async () => {
    await formDialog(b.page).locator('.ant-modal-close').click();
    await confirmReady(b.page);
    await b.page.getByTestId('confirm-cancel').click();
    await discardConfirm(b.page).waitFor({ state: 'detached' });
    expect(await b.page.locator('#resource_title').inputValue()).toBe('春节放假安排（修订）');
    await waitFor(b.page, 'the focus back in the dialog', async () => (await focus(b.page)).inForm);

    // the mask: a click beside the dialog
    await b.page.mouse.click(30, 600);
    await confirmReady(b.page);
    await b.page.getByTestId('confirm-cancel').click();
    await discardConfirm(b.page).waitFor({ state: 'detached' });
    expect(await formDialog(b.page).isVisible()).toBe(true);

    await b.page.mouse.click(30, 600);
    await confirmReady(b.page);
    await b.page.getByTestId('confirm-ok').click();
    await formDialog(b.page).waitFor({ state: 'hidden' });
    await openAdd(b.page);
    expect(await b.page.locator('#resource_title').inputValue()).toBe('');
    // an unchanged dialog closes on a click outside without asking
    await b.page.mouse.click(30, 600);
    await formDialog(b.page).waitFor({ state: 'hidden' });
    expect(await discardConfirm(b.page).count()).toBe(0);
  });
});

describe('times in the server\'s display zone', () => {
  it('runs the browser in another zone than the server', async () => {
    expect(await b.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(BROWSER_ZONE);
  });

  it('the picker\'s 此刻 gives the server zone\'s time, and the list shows what was picked', async () => {
    await openAdd(b.page);
    await b.page.keyboard.type('时区检查');
    await b.page.locator('#resource_category').click();
    await b.page.locator('.ant-select-dropdown .ant-select-item-option', { hasText: '发布通知' }).click();
    await b.page.locator('#resource_releaseTime').click();
    await openPicker(b.page).waitFor();
    const before = wallTime(new Date(Date.now() - 1000), SERVER_ZONE);
    await openPicker(b.page).locator('.ant-picker-now-btn').click();
    await openPicker(b.page).waitFor({ state: 'hidden' }).catch(async () => {
      // some versions keep the panel open until OK
      await openPicker(b.page).locator('.ant-picker-ok button').click();
    });
    const after = wallTime(new Date(Date.now() + 1000), SERVER_ZONE);
    const picked = await b.page.locator('#resource_releaseTime').inputValue();
    expect(between(picked, before, after), `${picked} between ${before} and ${after} (${SERVER_ZONE})`).toBe(true);
    // ...and not the browser's own wall time, which is 13 hours behind
    expect(picked.slice(0, 13)).not.toBe(wallTime(new Date(), BROWSER_ZONE).slice(0, 13));
    await shot(b.page, 'now-in-server-zone');
    await b.page.getByTestId('resource-form-submit').click();
    await toast(b.page, '新增成功');
    await waitFor(b.page, 'the row with the picked time', async () => {
      const row = await tableRows(b.page).first().innerText();
      return row.includes('时区检查') && row.includes(picked);
    });
  });

  it('an edit dialog focuses its first field once the record is in, and closes unasked while unchanged', async () => {
    await clickRowAction(tableRows(b.page).first(), 'resource-row-edit');
    await waitFor(b.page, 'the record loaded', async () => (await b.page.locator('#resource_title').inputValue()) === '时区检查');
    await waitFor(b.page, 'the first field focused', async () => (await focus(b.page)).id === 'resource_title');
    await b.page.keyboard.press('Escape');
    await formDialog(b.page).waitFor({ state: 'hidden' });
    expect(await discardConfirm(b.page).count()).toBe(0);

    await clickRowAction(tableRows(b.page).first(), 'resource-row-edit');
    await waitFor(b.page, 'the record loaded', async () => (await b.page.locator('#resource_title').inputValue()) === '时区检查');
    await waitFor(b.page, 'the first field focused', async () => (await focus(b.page)).id === 'resource_title');
    await b.page.keyboard.type('（改）');
    await b.page.keyboard.press('Escape');
    await confirmReady(b.page);
    await b.page.getByTestId('confirm-ok').click();
    await formDialog(b.page).waitFor({ state: 'hidden' });
    expect(await tableRows(b.page).first().innerText()).not.toContain('（改）');
  });

  it('stamps the local error log in the server zone', async () => {
    const before = wallTime(new Date(Date.now() - 1000), SERVER_ZONE);
    await b.page.evaluate(() => {
      setTimeout(() => {
        throw new Error('e2e error in the server zone');
      }, 0);
    });
    await b.page.getByTestId('tool-error-log').click();
    const table = b.page.getByTestId('error-log-table');
    const row = table.locator('tbody tr', { hasText: 'e2e error in the server zone' });
    await row.waitFor();
    const after = wallTime(new Date(Date.now() + 1000), SERVER_ZONE);
    const time = (await row.locator('td').last().innerText()).trim();
    expect(between(time, before, after), `${time} between ${before} and ${after} (${SERVER_ZONE})`).toBe(true);
    await shot(b.page, 'error-log-server-zone');
  });

  it('a confirm inside the error log gives the focus back to it, so Esc still closes it', async () => {
    await b.page.getByTestId('error-log-clear').click();
    await b.page.locator('.ant-modal-confirm', { hasText: '确定清空本地日志?' }).waitFor();
    await b.page.getByTestId('confirm-ok').click();
    await b.page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
    await toast(b.page, '清空成功!');
    await waitFor(b.page, 'the focus back in the error log', async () =>
      b.page.evaluate(() => !!document.activeElement?.closest('.ant-modal-wrap')?.querySelector('[data-testid="error-log-table"]')));
    await b.page.keyboard.press('Escape');
    await b.page.getByTestId('error-log-table').waitFor({ state: 'hidden' });
  });
});

describe('form wording in English', () => {
  it('placeholders say what the messages say', async () => {
    await b.page.getByTestId('lang-en').click();
    await waitFor(b.page, 'English', async () => (await b.page.getByTestId('resource-add').innerText()).includes('Add'));
    await openAdd(b.page);
    expect(await b.page.locator('#resource_title').getAttribute('placeholder')).toBe('Please enter the title');
    expect(await b.page.getByTestId('richtext-content').getAttribute('data-placeholder')).toBe('Please enter the content');
    expect(await b.page.locator('#resource_releaseTime').getAttribute('placeholder')).toBe('Please select the release time');
    await b.page.getByTestId('resource-form-submit').click();
    await b.page.locator('.ant-form-item-explain-error', { hasText: 'Please enter the title' }).waitFor();
    await b.page.locator('.ant-form-item-explain-error', { hasText: 'Please select the release time' }).waitFor();
    await shot(b.page, 'placeholders-en');

    await b.page.locator('#resource_title').fill('Draft');
    await b.page.keyboard.press('Escape');
    await confirmReady(b.page);
    expect(await discardConfirm(b.page).innerText()).toContain('Discard your changes?');
    await b.page.getByTestId('confirm-ok').click();
    await formDialog(b.page).waitFor({ state: 'hidden' });
    await discardForm(b.page);
    await b.page.getByTestId('lang-zh').click();
  });
});

describe('with animations on', () => {
  it('what is typed right after opening lands in the first field and in the search box', async () => {
    await b.page.emulateMedia({ reducedMotion: 'no-preference' });
    try {
      await b.page.reload();
      await b.page.getByTestId('resource-page').waitFor();
      // typed while the dialog is still zooming in
      await b.page.getByTestId('resource-add').click();
      await b.page.keyboard.type('animated');
      await waitFor(b.page, 'the text in the first field', async () => (await b.page.locator('#resource_title').inputValue()) === 'animated');
      await b.page.getByTestId('resource-form-cancel').click();
      await formDialog(b.page).waitFor({ state: 'hidden' });

      await b.page.locator('#search_title').click();
      await b.page.keyboard.press('Control+k');
      await b.page.keyboard.type('通知');
      const box = b.page.getByTestId('menu-search-input');
      await waitFor(b.page, 'the text in the search box', async () => (await box.inputValue()) === '通知');
      expect(await b.page.locator('#search_title').inputValue()).toBe('');
      await b.page.keyboard.press('Escape');
      await box.waitFor({ state: 'hidden' });
      // the focus goes back to the field it came from
      await waitFor(b.page, 'the focus back in the page field', async () => (await focus(b.page)).id === 'search_title');
    } finally {
      await b.page.emulateMedia({ reducedMotion: 'reduce' });
    }
  });
});

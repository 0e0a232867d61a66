import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '../api.js';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { confirm, signIn, signOutLocally, toast, waitFor } from '../flows.js';

// Honest messages: a refused password change is toasted and shown on the field; a session the server
// ended is named on the login page (not after a deliberate sign-out); English labels are whole; the home
// page names the roles in the UI language.
const b = useBrowser();

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `messages-${name}.png`) });

/** The signed-in browser's access token. */
function browserToken(page: Page): Promise<string> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('saber-session') ?? '{}').state?.token?.content as string);
}

/** Chooses the UI language with the header's switch (the choice is kept in saber-settings). */
async function chooseLanguage(page: Page, lang: 'zh' | 'en'): Promise<void> {
  await page.getByTestId(`lang-${lang}`).click();
  await waitFor(page, `<html lang> ${lang}`, async () => (await page.evaluate(() => document.documentElement.lang)).startsWith(lang));
}

/** Labels of a form whose text does not fit their box (cut or ellipsed): none should be. */
function cutLabels(page: Page, form: string): Promise<string[]> {
  return page.getByTestId(form).evaluate((el) => [...el.querySelectorAll<HTMLElement>('.ant-form-item-label, .ant-form-item-label > label')]
    .filter((l) => l.textContent?.trim() && l.scrollWidth > l.clientWidth)
    .map((l) => `${l.textContent!.trim()} (${l.scrollWidth} > ${l.clientWidth})`));
}

describe('a refused password change', () => {
  it('toasts a wrong current password and shows it on the field', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl);
    await b.page.goto(`${b.baseUrl}/info/index`);
    await b.page.getByTestId('info-tab-password').click();
    await b.page.getByTestId('pwd-old').fill('not-the-password');
    await b.page.getByTestId('pwd-new').fill('Another-pass-2026');
    await b.page.getByTestId('pwd-confirm').fill('Another-pass-2026');
    await b.page.getByTestId('pwd-submit').click();
    await toast(b.page, '原密码不正确');
    await b.page.getByTestId('info-password-form').locator('.ant-form-item-explain-error', { hasText: '原密码不正确' }).waitFor();
    await shot(b.page, 'wrong-current-password');
  });
});

describe('the end of a session', () => {
  it('says on the login page that the session expired when the server ended it, after a reload', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl);
    // the server ends the session (as an expiry or a revocation does): its tokens stop working
    const revoked = await api<boolean>(b.baseUrl, await browserToken(b.page), '/api/blade-auth/oauth/logout');
    expect(revoked.code).toBe(200);
    await b.page.reload();
    await b.page.waitForURL((u) => u.pathname === '/login');
    const notice = b.page.getByTestId('login-expired');
    await notice.waitFor();
    expect(await notice.innerText()).toBe('登录已过期，请重新登录');
    await b.page.getByTestId('login-form').waitFor();
    await shot(b.page, 'session-expired-zh');
  });

  it('says so too when a call ends the session during use, in English', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl);
    await chooseLanguage(b.page, 'en');
    await api(b.baseUrl, await browserToken(b.page), '/api/blade-auth/oauth/logout');
    // the next call is refused: the session is over
    await b.page.getByTestId('menu-system').click();
    await b.page.getByTestId('menu-param').click();
    await b.page.waitForURL((u) => u.pathname === '/login');
    const notice = b.page.getByTestId('login-expired');
    await notice.waitFor();
    expect(await notice.innerText()).toBe('Your session has expired; please sign in again');
    await shot(b.page, 'session-expired-en');
    await chooseLanguage(b.page, 'zh');
  });

  it('does not say so after a deliberate sign-out, nor to a visitor who was never signed in', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl);
    await b.page.getByTestId('user-menu').click();
    await b.page.getByTestId('logout').click();
    await confirm(b.page);
    await b.page.waitForURL((u) => u.pathname === '/login');
    await b.page.getByTestId('login-form').waitFor();
    expect(await b.page.getByTestId('login-expired').count()).toBe(0);
    // the old page again: the guard sends the signed-out user to /login, still without the message
    await b.page.goto(`${b.baseUrl}/wel/index`);
    await b.page.waitForURL((u) => u.pathname === '/login');
    await b.page.getByTestId('login-form').waitFor();
    expect(await b.page.getByTestId('login-expired').count()).toBe(0);
    await shot(b.page, 'after-sign-out');
  });
});

describe('English', () => {
  it('cuts no label of the personal-info tabs, in either language', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl);
    for (const lang of ['en', 'zh'] as const) {
      await chooseLanguage(b.page, lang);
      await b.page.goto(`${b.baseUrl}/info/index`);
      await b.page.getByTestId('info-profile-form').waitFor();
      expect(await cutLabels(b.page, 'info-profile-form')).toEqual([]);
      await b.page.getByTestId('info-tab-password').click();
      await b.page.getByTestId('info-password-form').waitFor();
      if (lang === 'en') {
        for (const text of ['Current password', 'New password', 'Confirm password']) {
          await b.page.getByTestId('info-password-form').locator('label', { hasText: text }).waitFor();
        }
      }
      expect(await cutLabels(b.page, 'info-password-form')).toEqual([]);
      await shot(b.page, `info-password-${lang}`);
    }
  });

  it('names the roles (not their codes) on the home page, the user and the switch dialog in the UI language', async () => {
    await b.page.goto(`${b.baseUrl}/wel/index`);
    const roles = b.page.getByTestId('home-roles');
    await waitFor(b.page, 'the role names in Chinese', async () => {
      const text = await roles.innerText();
      return text.includes('超级管理员') && text.includes('用户');
    });
    expect(await roles.innerText()).not.toMatch(/administrator|user/);
    expect(await b.page.getByTestId('user-name').innerText()).toBe('管理员');
    await shot(b.page, 'home-roles-zh');

    await chooseLanguage(b.page, 'en');
    await waitFor(b.page, 'the role names in English', async () => {
      const text = await roles.innerText();
      return text.includes('Super administrator') && text.includes('User');
    });
    expect(await roles.innerText()).not.toMatch(/administrator,user|user,administrator/);
    expect(await b.page.getByTestId('user-name').innerText()).toBe('Administrator');
    await shot(b.page, 'home-roles-en');

    // the switch dialog (switch mode is on for these tests) offers the English names
    await b.page.getByTestId('user-menu').click();
    await b.page.getByTestId('user-menu-switch').click();
    await b.page.getByTestId('switch-form').waitFor();
    await b.page.getByTestId('switch-role').click();
    await b.page.locator('.ant-select-item-option', { hasText: 'Super administrator' }).waitFor();
    await b.page.locator('.ant-select-item-option', { hasText: /^User$/ }).waitFor();
    await b.page.keyboard.press('Escape');
    await b.page.getByTestId('switch-dept').click();
    await b.page.locator('.ant-select-item-option', { hasText: 'Platform operations' }).waitFor();
    await b.page.locator('.ant-select-item-option', { hasText: 'R&D center' }).waitFor();
    await shot(b.page, 'switch-dialog-en');
    await b.page.keyboard.press('Escape');
    await b.page.locator('.ant-modal-footer button', { hasText: 'Cancel' }).click();
    await b.page.getByTestId('switch-form').waitFor({ state: 'detached' });
    await chooseLanguage(b.page, 'zh');
  });
});

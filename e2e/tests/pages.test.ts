import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { api, apiToken, md5 } from '../api.js';
import { useBrowser } from '../browser.js';
import { confirm, signIn, signOutLocally, toast, waitFor } from '../flows.js';

const b = useBrowser();

/** The demo tenant's administrator: its profile and password are changed here, and restored at the end. */
const DEMO = { tenant: '541742', user: 'admin', password: 'admin' } as const;
const NEW_PASSWORD = 'Demo-pass-2026';

/** A 1×1 transparent PNG. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function path(page: Page): string {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
}

/** Fills the login form and submits it, without waiting for a particular page. */
async function submitLogin(page: Page, tenant: string, user: string, password: string): Promise<void> {
  await page.getByTestId('login-tenant').fill(tenant);
  await page.getByTestId('login-username').fill(user);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Opens a menu page, opening its parent submenu only when it is closed (a click would close an open one). */
async function goMenu(page: Page, parent: string, leaf: string): Promise<void> {
  const item = page.getByTestId(`menu-${leaf}`);
  if (!(await item.isVisible())) await page.getByTestId(`menu-${parent}`).click();
  await item.click();
}

/** The element on screen with this test id: pages kept alive in hidden tabs carry the same ids. */
function shown(page: Page, testId: string) {
  return page.getByTestId(testId).filter({ visible: true });
}

/** The signed-in browser's access token. */
async function browserToken(page: Page): Promise<string> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('saber-session') ?? '{}').state?.token?.content as string);
}

afterAll(async () => {
  // put the demo administrator back as seeded, whichever password it ended with
  const token = (await apiToken(b.baseUrl, DEMO.tenant, DEMO.user, DEMO.password))
    ?? (await apiToken(b.baseUrl, DEMO.tenant, DEMO.user, NEW_PASSWORD));
  if (!token) return;
  if (!(await apiToken(b.baseUrl, DEMO.tenant, DEMO.user, DEMO.password))) {
    await api(b.baseUrl, token, '/api/blade-system/user/update-password', {
      method: 'POST',
      json: { oldPassword: md5(NEW_PASSWORD), newPassword: md5(DEMO.password), newPassword1: md5(DEMO.password) },
    });
  }
  await api(b.baseUrl, token, '/api/blade-system/user/update-info', {
    method: 'POST',
    json: { realName: '管理员', name: 'Administrator', phone: '', email: '', avatar: '' },
  });
});

describe('route guard', () => {
  it('sends a visitor to /login and back to the wanted page after sign-in', async () => {
    await b.page.goto(`${b.baseUrl}/desk/notice?from=guard`);
    await b.page.waitForURL((u) => u.pathname === '/login');
    await submitLogin(b.page, '000000', 'admin', 'admin');
    await b.page.waitForURL((u) => u.pathname === '/desk/notice');
    expect(path(b.page)).toBe('/desk/notice?from=guard');
    await shown(b.page, 'resource-page').waitFor();
  });

  it('sends a signed-in user from /login to the home page', async () => {
    await b.page.goto(`${b.baseUrl}/login`);
    await b.page.waitForURL((u) => u.pathname === '/wel/index');
    await b.page.getByTestId('home-greeting').waitFor();
  });

  it('sends / to the home page and an unknown path to /404', async () => {
    await b.page.goto(`${b.baseUrl}/`);
    await b.page.waitForURL((u) => u.pathname === '/wel/index');
    await b.page.goto(`${b.baseUrl}/no/such/page`);
    await b.page.waitForURL((u) => u.pathname === '/404');
    await b.page.getByTestId('error-page-404').waitFor();
  });

  it('does not return to another origin after sign-in', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await b.page.goto(`${b.baseUrl}/login`);
    // the login entry's state as the guard writes it, pointing elsewhere
    await b.page.evaluate(() => history.replaceState({ usr: { from: '//example.com/steal' }, key: 'x', idx: 0 }, '', '/login'));
    await b.page.reload();
    await submitLogin(b.page, '000000', 'admin', 'admin');
    await b.page.waitForURL((u) => u.pathname === '/wel/index');
    expect(new URL(b.page.url()).origin).toBe(b.baseUrl);
  });

  it('after a deliberate sign-out, signing in again starts at home', async () => {
    await b.page.goto(`${b.baseUrl}/desk/notice`);
    await shown(b.page, 'resource-page').waitFor();
    await b.page.getByTestId('user-menu').click();
    await b.page.getByTestId('logout').click();
    await confirm(b.page);
    await b.page.waitForURL((u) => u.pathname === '/login');
    await submitLogin(b.page, '000000', 'admin', 'admin');
    await b.page.waitForURL((u) => u.pathname === '/wel/index');
  });

  it('logs out locally when the stored token is empty', async () => {
    await b.page.goto(`${b.baseUrl}/wel/index`);
    await b.page.getByTestId('home-greeting').waitFor();
    // edit the stored session where the console is not running (it would write its own copy back)
    await b.page.goto(`${b.baseUrl}/version.json`);
    await b.page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('saber-session')!);
      stored.state.token.content = '';
      localStorage.setItem('saber-session', JSON.stringify(stored));
    });
    await b.page.goto(`${b.baseUrl}/wel/index`);
    await b.page.waitForURL((u) => u.pathname === '/login');
    await waitFor(b.page, 'the local session to be cleared', async () =>
      b.page.evaluate(() => JSON.parse(localStorage.getItem('saber-session') ?? '{}').state?.token === null));
  });

  it('a 401 from any call logs out to /login, and signing in again returns to the page', async () => {
    await signIn(b.page, b.baseUrl);
    await goMenu(b.page, 'desk', 'notice');
    await shown(b.page, 'resource-page').waitFor();
    // the session ends on the server (as when it expires or is revoked elsewhere)
    const token = await browserToken(b.page);
    expect((await api(b.baseUrl, token, '/api/blade-auth/oauth/logout')).code).toBe(200);
    // the next call answers 401: reloading the list, unless a call of the header (notices, top menu) was first
    await shown(b.page, 'resource-search-submit').click({ timeout: 5_000 }).catch(() => undefined);
    await b.page.waitForURL((u) => u.pathname === '/login');
    await submitLogin(b.page, '000000', 'admin', 'admin');
    await b.page.waitForURL((u) => u.pathname === '/desk/notice');
    await shown(b.page, 'resource-page').waitFor();
  });
});

describe('agreements (/policy/:id)', () => {
  it('the login page links to both agreements, which render with title, version and time', async () => {
    await signOutLocally(b.page, b.baseUrl);
    for (const type of ['user', 'privacy']) {
      await b.page.goto(`${b.baseUrl}/login`);
      await b.page.getByTestId(`login-policy-${type}`).click();
      await b.page.waitForURL((u) => u.pathname === `/policy/${type}`);
      await b.page.getByTestId('policy').waitFor();
      expect(await b.page.getByTestId('policy').getAttribute('data-type')).toBe(type);
      expect((await b.page.getByTestId('policy-title').innerText()).trim()).not.toBe('');
      expect(await b.page.getByTestId('policy-meta').innerText()).toMatch(/版本 .+ · 发布于 \d{4}-\d{2}-\d{2}/);
      expect((await b.page.getByTestId('policy-content').innerText()).trim().length).toBeGreaterThan(20);
      await b.page.getByTestId('policy-back').click();
      await b.page.waitForURL((u) => u.pathname === '/login');
    }
  });

  it('follows the UI language', async () => {
    await b.page.goto(`${b.baseUrl}/policy/user`);
    const zhTitle = await b.page.getByTestId('policy-title').innerText();
    await b.page.getByTestId('lang-en').click();
    await waitFor(b.page, 'the English agreement', async () => {
      const meta = await b.page.getByTestId('policy-meta').innerText();
      return meta.startsWith('Version') && (await b.page.getByTestId('policy-title').innerText()) !== zhTitle;
    });
    await b.page.getByTestId('lang-zh').click();
    await waitFor(b.page, 'the Chinese agreement', async () => (await b.page.getByTestId('policy-title').innerText()) === zhTitle);
  });

  it('shows not-found for an unknown agreement', async () => {
    await b.page.goto(`${b.baseUrl}/policy/cookies`);
    await b.page.getByTestId('policy-not-found').waitFor();
    expect(await b.page.getByTestId('policy-not-found').innerText()).toContain('协议不存在');
  });
});

describe('diagnostics (/test)', () => {
  it('checks the server, the version and the clock for a visitor, and runs again on demand', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await b.page.goto(`${b.baseUrl}/test`);
    const state = b.page.getByTestId('test-server-state');
    await state.waitFor();
    expect(await state.getAttribute('data-state')).toBe('online');
    expect(await b.page.getByTestId('test-rtt').innerText()).toMatch(/^\d+(\.\d)? ms$/);
    expect(await b.page.getByTestId('test-db').innerText()).toMatch(/^\d+(\.\d)? ms$/);
    const deployed = (await (await fetch(`${b.baseUrl}/version.json`)).json()) as { version: string };
    expect(await b.page.getByTestId('test-deployed-version').innerText()).toBe(deployed.version);
    expect(await b.page.getByTestId('test-server-version').innerText()).toBe(deployed.version);
    // built and served from the same checkout: the running bundle is the deployed one
    expect(await b.page.getByTestId('test-bundle-version').innerText()).toBe(deployed.version);
    expect(await b.page.getByTestId('test-version-state').getAttribute('data-state')).toBe('current');
    // browser and server run on this machine: the same clock, within the measurement's second
    const skew = Number(await b.page.getByTestId('test-clock-skew').getAttribute('data-skew-ms'));
    expect(Math.abs(skew)).toBeLessThan(2000);
    expect(await b.page.getByTestId('test-session').getAttribute('data-signed-in')).toBe('false');
    expect(await b.page.getByTestId('side-menu').count()).toBe(0);

    await b.page.getByTestId('test-rerun').click();
    await waitFor(b.page, 'a second run', async () => (await b.page.getByTestId('test-page').getAttribute('data-runs')) === '2');
    expect(await state.getAttribute('data-state')).toBe('online');
  });

  it('shows the session inside the layout when signed in', async () => {
    await signIn(b.page, b.baseUrl);
    await b.page.goto(`${b.baseUrl}/test`);
    await b.page.getByTestId('side-menu').waitFor();
    expect(await b.page.getByTestId('test-session').getAttribute('data-signed-in')).toBe('true');
    expect(await b.page.getByTestId('test-tenant').innerText()).toBe('000000');
    const roleName = await b.page.evaluate(() => JSON.parse(localStorage.getItem('saber-session')!).state.userInfo.role_name as string);
    expect(await b.page.getByTestId('test-roles').innerText()).toBe(roleName);
    const codes = await b.page.evaluate(() => JSON.parse(sessionStorage.getItem('saber-permission')!).state.codes.length as number);
    expect(codes).toBeGreaterThan(0);
    expect(Number(await b.page.getByTestId('test-permissions').innerText())).toBe(codes);
    expect(await b.page.getByTestId('test-token-age').innerText()).toMatch(/^\d+ 分 \d+ 秒$/);
    expect(await b.page.getByTestId('test-token-expires').innerText()).toMatch(/^\d+ 分 \d+ 秒$/);
  });
});

describe('embedded pages (/myiframe)', () => {
  it('frames an http URL inside the layout', async () => {
    const src = `${b.baseUrl}/version.json`;
    await b.page.goto(`${b.baseUrl}/myiframe/version?src=${encodeURIComponent(src)}`);
    await b.page.getByTestId('side-menu').waitFor();
    const frame = b.page.getByTestId('iframe-frame');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toBe(src);
    const inner = b.page.frameLocator('[data-testid="iframe-frame"]');
    await inner.locator('body', { hasText: 'version' }).waitFor();
  });

  it('frames a page of the console itself, which renders under the console\'s CSP', async () => {
    const src = `${b.baseUrl}/policy/user`;
    await b.page.goto(`${b.baseUrl}/myiframe/policy?src=${encodeURIComponent(src)}`);
    await b.page.getByTestId('side-menu').waitFor();
    const inner = b.page.frameLocator('[data-testid="iframe-frame"]');
    await inner.getByTestId('policy-title').waitFor();
  });

  it('frames it without the layout for a visitor', async () => {
    await signOutLocally(b.page, b.baseUrl);
    const src = `${b.baseUrl}/version.json`;
    await b.page.goto(`${b.baseUrl}/myiframe/version?src=${encodeURIComponent(src)}`);
    await b.page.getByTestId('iframe-frame').waitFor();
    expect(b.page.url()).toContain('/myiframe/version');
    expect(await b.page.getByTestId('side-menu').count()).toBe(0);
  });

  it('refuses javascript: and other non-http addresses', async () => {
    for (const src of ['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>']) {
      await b.page.goto(`${b.baseUrl}/myiframe/x?src=${encodeURIComponent(src)}`);
      await b.page.getByTestId('iframe-refused').waitFor();
      expect(await b.page.locator('iframe').count()).toBe(0);
    }
  });
});

describe('home shortcuts', () => {
  it('offers the most visited menu pages, most visited first', async () => {
    await signIn(b.page, b.baseUrl);
    for (let i = 0; i < 3; i++) {
      await goMenu(b.page, 'desk', 'notice');
      await shown(b.page, 'resource-page').waitFor();
      await b.page.getByTestId('menu-home').click();
      await b.page.getByTestId('home-greeting').waitFor();
    }
    await goMenu(b.page, 'system', 'param');
    await shown(b.page, 'resource-page').waitFor();
    await b.page.getByTestId('menu-home').click();
    const shortcuts = b.page.getByTestId('home-shortcut');
    await shortcuts.first().waitFor();
    const paths = await shortcuts.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
    expect(paths.slice(0, 2)).toEqual(['/desk/notice', '/system/param']);
    await shortcuts.first().click();
    await b.page.waitForURL((u) => u.pathname === '/desk/notice');
  });
});

describe('dashboard (/wel/dashboard)', () => {
  it('draws the charts and shows the figures the server returns, for the chosen days', async () => {
    await b.page.goto(`${b.baseUrl}/wel/dashboard`);
    await b.page.getByTestId('dash-users-total').waitFor();
    await b.page.getByTestId('dash-chart-signins').locator('canvas').waitFor();
    await b.page.getByTestId('dash-chart-api').locator('canvas').waitFor();
    const token = await browserToken(b.page);
    const expectFigures = async (days: number) => {
      const overview = await api<{
        users: { total: number; awaitingApproval: number };
        tenants: { total: number };
        activeSessions: number;
        signIns: unknown[];
      }>(b.baseUrl, token, `/api/blade-desk/dashboard/overview?days=${days}`);
      expect(overview.code).toBe(200);
      expect(overview.data.signIns).toHaveLength(days);
      await waitFor(b.page, `figures of ${days} days`, async () => (await b.page.getByTestId('dashboard').getAttribute('data-days')) === String(days));
      const value = async (id: string) => Number(await b.page.getByTestId(id).getAttribute('data-value'));
      expect(await value('dash-users-total')).toBe(overview.data.users.total);
      expect(await value('dash-users-awaiting')).toBe(overview.data.users.awaitingApproval);
      expect(await value('dash-tenants')).toBe(overview.data.tenants.total);
      // the browser's own session is active; others may start or end between the two calls
      expect(await value('dash-sessions')).toBeGreaterThanOrEqual(1);
    };
    await expectFigures(14);
    await b.page.getByTestId('dash-days-7').click();
    await expectFigures(7);
    // the charts follow the page's width
    const before = await b.page.getByTestId('dash-chart-signins').locator('canvas').evaluate((c) => (c as HTMLCanvasElement).clientWidth);
    await b.page.setViewportSize({ width: 1100, height: 900 });
    await waitFor(b.page, 'the chart to resize', async () =>
      (await b.page.getByTestId('dash-chart-signins').locator('canvas').evaluate((c) => (c as HTMLCanvasElement).clientWidth)) !== before);
    await b.page.setViewportSize({ width: 1440, height: 900 });
  });
});

describe('personal info (/info/index)', () => {
  it('checks the phone number as spec 5 says', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl, DEMO.tenant, DEMO.user, DEMO.password);
    await b.page.goto(`${b.baseUrl}/info/index`);
    expect(await b.page.getByTestId('info-account').inputValue()).toBe('admin');
    expect(await b.page.getByTestId('info-account').isEditable()).toBe(false);
    const phone = b.page.getByTestId('info-phone');
    await phone.fill('');
    await b.page.getByTestId('info-save').click();
    await b.page.getByText('手机号码不能为空').waitFor();
    await phone.fill('1380013800');
    await b.page.getByText('手机号码长度不是11位').waitFor();
    await phone.fill('23800138000');
    await b.page.getByText('手机号码格式不正确').waitFor();
  });

  it('saves the profile, updates the header and keeps it after a reload', async () => {
    await b.page.getByTestId('info-realName').fill('演示管理员');
    await b.page.getByTestId('info-name').fill('demo');
    await b.page.getByTestId('info-phone').fill('13800138000');
    await b.page.getByTestId('info-email').fill('demo@example.com');
    await b.page.getByTestId('info-save').click();
    await toast(b.page, '修改成功');
    await waitFor(b.page, 'the header name', async () => (await b.page.getByTestId('user-name').innerText()) === '演示管理员');
    await b.page.reload();
    await waitFor(b.page, 'the saved profile', async () => (await b.page.getByTestId('info-realName').inputValue()) === '演示管理员');
    expect(await b.page.getByTestId('info-name').inputValue()).toBe('demo');
    expect(await b.page.getByTestId('info-phone').inputValue()).toBe('13800138000');
    expect(await b.page.getByTestId('info-email').inputValue()).toBe('demo@example.com');
  });

  it('refuses a too large or non-image avatar in the browser, and uploads a small PNG', async () => {
    const input = b.page.getByTestId('info-avatar-upload').locator('input[type=file]');
    await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([TINY_PNG, Buffer.alloc(600 * 1024)]) });
    await toast(b.page, '头像大小不能超过 500kb');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await toast(b.page, '头像只能是 jpg 或 png 格式');
    expect(await b.page.getByTestId('info-avatar').getAttribute('data-src')).toBe('');

    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: TINY_PNG });
    await toast(b.page, '头像上传成功');
    const avatar = b.page.getByTestId('info-avatar');
    await waitFor(b.page, 'the uploaded avatar', async () => ((await avatar.getAttribute('data-src')) ?? '') !== '');
    const link = (await avatar.getAttribute('data-src'))!;
    await avatar.locator('img').waitFor();
    expect((await fetch(new URL(link, b.baseUrl))).status).toBe(200);
    await b.page.getByTestId('info-save').click();
    await toast(b.page, '修改成功');
    await b.page.getByTestId('user-menu').locator(`img[src="${link}"]`).waitFor();
  });

  it('changes the password: mismatch, wrong old password, then success and sign-in with the new one', async () => {
    await b.page.getByTestId('info-tab-password').click();
    await b.page.getByTestId('pwd-old').fill(DEMO.password);
    await b.page.getByTestId('pwd-new').fill(NEW_PASSWORD);
    await b.page.getByTestId('pwd-confirm').fill(`${NEW_PASSWORD}x`);
    await b.page.getByTestId('pwd-submit').click();
    await b.page.getByText('两次输入的密码不一致').waitFor();

    await b.page.getByTestId('pwd-old').fill('wrong-old');
    await b.page.getByTestId('pwd-confirm').fill(NEW_PASSWORD);
    await b.page.getByTestId('pwd-submit').click();
    // on the field (and toasted)
    await b.page.getByTestId('info-password-form').getByText('原密码不正确').waitFor();

    await b.page.getByTestId('pwd-old').fill(DEMO.password);
    await b.page.getByTestId('pwd-submit').click();
    await toast(b.page, '其他地方的登录已全部退出');
    expect(await apiToken(b.baseUrl, DEMO.tenant, DEMO.user, DEMO.password)).toBeNull();

    await b.page.getByTestId('user-menu').click();
    await b.page.getByTestId('logout').click();
    await confirm(b.page);
    await b.page.waitForURL((u) => u.pathname === '/login');
    await signIn(b.page, b.baseUrl, DEMO.tenant, DEMO.user, NEW_PASSWORD);
    await b.page.getByTestId('home-greeting').waitFor();
  });
});

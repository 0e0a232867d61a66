import { describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.js';
import { confirm, signIn, toast, waitFor } from '../flows.js';
import { wrongPasswordFrom } from '../api.js';

const b = useBrowser();

describe('signing in and out', () => {
  it('sends a visitor without a token to /login, titled 登录', async () => {
    await b.page.goto(`${b.baseUrl}/system/param`);
    await b.page.waitForURL('**/login');
    expect(await b.page.title()).toContain('登录');
  });

  it('shows the server\'s error_description for a wrong password and stays on /login', async () => {
    await b.page.goto(`${b.baseUrl}/login`);
    await b.page.getByTestId('login-tenant').fill('000000');
    await b.page.getByTestId('login-username').fill('admin');
    await b.page.getByTestId('login-password').fill('wrong');
    await b.page.getByTestId('login-submit').click();
    await toast(b.page, '用户名或密码错误');
    expect(b.page.url()).toContain('/login');
  });

  it('asks for a captcha when the account had failed sign-ins from elsewhere, and signs in with the captcha grant', async () => {
    // five wrong passwords for the account from another address (127.0.0.2): the account now needs a captcha
    const account = 'captcha-asked';
    for (let i = 0; i < 5; i++) await wrongPasswordFrom('127.0.0.2', b.baseUrl, '000000', account);
    await b.page.goto(`${b.baseUrl}/login`);
    expect(await b.page.getByTestId('login-captcha').count()).toBe(0);
    await b.page.getByTestId('login-tenant').fill('000000');
    await b.page.getByTestId('login-username').fill(account);
    await b.page.getByTestId('login-password').fill('whatever');
    await b.page.getByTestId('login-submit').click();
    await toast(b.page, '该账号登录失败次数较多, 请输入验证码后再登录');
    await b.page.getByTestId('login-captcha-image').waitFor();
    await b.page.getByTestId('login-captcha').fill('ZZZZZ');
    const grant = b.page.waitForResponse((r) => r.url().includes('/oauth/token'));
    await b.page.getByTestId('login-submit').click();
    const sent = (await grant).request();
    expect(new URLSearchParams(sent.postData() ?? '').get('grant_type')).toBe('captcha');
    await toast(b.page, '验证码不正确');
    expect(b.page.url()).toContain('/login');
  });

  it('validates the login form before sending anything', async () => {
    await b.page.goto(`${b.baseUrl}/login`);
    await b.page.getByTestId('login-tenant').fill('');
    await b.page.getByTestId('login-submit').click();
    await b.page.getByText('请输入用户名').waitFor();
    await b.page.getByText('请输入密码').waitFor();
    await b.page.getByText('请输入租户ID').waitFor();
  });

  it('signs in, lands on the home tab with the menu of the role, and keeps the session across a reload', async () => {
    await signIn(b.page, b.baseUrl);
    await b.page.getByTestId('home-greeting').waitFor();
    expect(await b.page.getByTestId('home-greeting').innerText()).toContain('管理员');
    await b.page.getByTestId('menu-desk').waitFor();
    await b.page.getByTestId('menu-system').waitFor();
    await b.page.reload();
    await b.page.getByTestId('home-greeting').waitFor();
    // a signed-in user visiting /login goes home
    await b.page.goto(`${b.baseUrl}/login`);
    await b.page.waitForURL((u) => !u.pathname.startsWith('/login'));
  });

  it('switches the whole console to English and back, and remembers the choice', async () => {
    await b.page.getByTestId('lang-en').click();
    await b.page.getByTestId('menu-system').getByText('System').waitFor();
    await b.page.getByTestId('menu-system').click();
    await b.page.getByTestId('menu-param').getByText('Parameters').waitFor();
    await b.page.reload();
    await b.page.getByTestId('menu-desk').getByText('Workbench').waitFor();
    await b.page.getByTestId('menu-param').click();
    await b.page.getByTestId('resource-page').waitFor();
    // antd's own texts follow (pagination, table header) and so do the server's messages
    await b.page.getByRole('button', { name: /Query/ }).waitFor();
    await b.page.getByTestId('lang-zh').click();
    await b.page.getByTestId('menu-system').getByText('系统管理').waitFor();
  });

  it('an unknown path inside the console shows 404', async () => {
    await b.page.goto(`${b.baseUrl}/no/such/page`);
    await b.page.getByTestId('error-page-404').waitFor();
  });

  it('signs out after confirmation, and the old session no longer works', async () => {
    await b.page.goto(`${b.baseUrl}/wel/index`);
    await b.page.getByTestId('user-menu').click();
    await b.page.getByTestId('logout').click();
    await confirm(b.page);
    await b.page.waitForURL('**/login');
    await b.page.goto(`${b.baseUrl}/wel/index`);
    await waitFor(b.page, 'redirect to /login', async () => b.page.url().includes('/login'));
  });
});

describe('the login form follows the server\'s console switches', () => {
  const withConfig = async (config: Record<string, unknown>) => {
    await b.page.goto(`${b.baseUrl}/version.json`);
    await b.page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    // the real server runs with the defaults: answer its switches as another deployment would
    await b.page.route('**/api/app/pub/console-config', (r) => r.fulfill({
      json: { code: 200, success: true, msg: '操作成功', data: { switchMode: false, captchaMode: false, tenantMode: true, defaultTenantId: '000000', ...config } },
    }));
  };

  it('prefills the default tenant, and without tenant mode hides the field and signs in to the default tenant', async () => {
    try {
      await withConfig({ defaultTenantId: '541742' });
      await b.page.goto(`${b.baseUrl}/login`);
      await waitFor(b.page, 'the default tenant prefilled', async () => (await b.page.getByTestId('login-tenant').inputValue()) === '541742');

      await withConfig({ tenantMode: false, defaultTenantId: '541742' });
      await b.page.goto(`${b.baseUrl}/login`);
      await b.page.getByTestId('login-username').fill('admin');
      await waitFor(b.page, 'the tenant field hidden', async () => !(await b.page.getByTestId('login-tenant').isVisible()));
      await b.page.getByTestId('login-password').fill('admin');
      const grant = b.page.waitForResponse((r) => r.url().includes('/oauth/token'));
      await b.page.getByTestId('login-submit').click();
      expect((await (await grant).json()).tenant_id).toBe('541742');
      await b.page.getByTestId('side-menu').waitFor();
    } finally {
      await b.page.unroute('**/api/app/pub/console-config');
    }
  });

  it('offers the form only once the switches are known, so nothing typed is overwritten; without them the defaults apply', async () => {
    try {
      await withConfig({});
      let release = () => {};
      const held = new Promise<void>((r) => { release = r; });
      await b.page.unroute('**/api/app/pub/console-config');
      await b.page.route('**/api/app/pub/console-config', async (r) => {
        await held;
        await r.fulfill({ json: { code: 200, success: true, msg: '操作成功', data: { switchMode: false, captchaMode: false, tenantMode: true, defaultTenantId: '541742' } } });
      });
      await b.page.goto(`${b.baseUrl}/login`);
      await b.page.getByTestId('login-loading').waitFor();
      expect(await b.page.getByTestId('login-tenant').count()).toBe(0);
      release();
      await b.page.getByTestId('login-tenant').fill('000000');
      await b.page.getByTestId('login-username').fill('admin');
      expect(await b.page.getByTestId('login-tenant').inputValue()).toBe('000000');

      await b.page.unroute('**/api/app/pub/console-config');
      await b.page.route('**/api/app/pub/console-config', (r) => r.abort());
      await b.page.goto(`${b.baseUrl}/login`);
      await b.page.getByTestId('login-tenant').waitFor();
      expect(await b.page.getByTestId('login-tenant').inputValue()).toBe('');
    } finally {
      await b.page.unroute('**/api/app/pub/console-config');
    }
  });

  it('in captcha mode shows the server\'s captcha, requires it, sends the captcha grant and shows a new one after a failure', async () => {
    try {
      await withConfig({ captchaMode: true });
      await b.page.goto(`${b.baseUrl}/login`);
      const image = b.page.getByTestId('login-captcha-image');
      await image.waitFor();
      const first = await image.getAttribute('src');
      expect(first).toMatch(/^data:image\/png;base64,/);
      await b.page.getByTestId('login-username').fill('admin');
      await b.page.getByTestId('login-password').fill('admin');
      await b.page.getByTestId('login-submit').click();
      await b.page.getByText('请输入验证码').waitFor();

      await b.page.getByTestId('login-captcha').fill('ZZZZZ');
      const grant = b.page.waitForResponse((r) => r.url().includes('/oauth/token'));
      await b.page.getByTestId('login-submit').click();
      const sent = (await grant).request();
      expect(new URLSearchParams(sent.postData() ?? '').get('grant_type')).toBe('captcha');
      expect(sent.headers()['captcha-code']).toBe('ZZZZZ');
      await toast(b.page, '验证码不正确');
      await waitFor(b.page, 'a new captcha', async () => {
        const src = await image.getAttribute('src').catch(() => null);
        return src !== null && src !== first;
      });
      expect(await b.page.getByTestId('login-captcha').inputValue()).toBe('');
      expect(b.page.url()).toContain('/login');
    } finally {
      await b.page.unroute('**/api/app/pub/console-config');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.js';
import { confirm, signIn, toast, waitFor } from '../flows.js';

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
    await b.page.getByTestId('user-menu').click();
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
    await b.page.getByTestId('user-menu').click();
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

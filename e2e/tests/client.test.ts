import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { confirm, signIn, tableRows, toast, waitFor, clickRowAction } from '../flows.js';

const b = useBrowser();

beforeAll(async () => {
  await signIn(b.page, b.baseUrl);
  await b.page.goto(`${b.baseUrl}/system/client`);
  await b.page.getByTestId('resource-page').waitFor();
});

async function shownSecret(): Promise<string> {
  const dialog = b.page.getByTestId('client-secret-dialog');
  await dialog.waitFor();
  const secret = (await b.page.getByTestId('client-secret-value').innerText()).trim();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return secret;
}

async function closeSecret() {
  await b.page.getByTestId('client-secret-close').click();
  await b.page.getByTestId('client-secret-dialog').waitFor({ state: 'hidden' });
}

describe('clients screen', () => {
  it('adds a client and shows its secret once, with a copy button', async () => {
    await b.page.getByTestId('resource-add').click();
    await b.page.locator('#resource_clientId').fill('e2e_app');
    await b.page.getByTestId('resource-form-submit').click();
    await toast(b.page, '新增成功');
    const secret = await shownSecret();
    await b.page.getByTestId('client-secret-dialog').locator('.ant-typography-copy').waitFor();
    await b.page.screenshot({ path: join(ARTIFACTS, 'client-secret.png') });
    await closeSecret();
    await waitFor(b.page, 'the new row', async () => (await tableRows(b.page).filter({ hasText: 'e2e_app' }).count()) === 1);
    expect(await b.page.locator('body').innerText()).not.toContain(secret);
    const row = tableRows(b.page).filter({ hasText: 'e2e_app' });
    expect(await row.innerText()).toContain('password,refresh_token');
  });

  it('resets a secret: a new one is shown once', async () => {
    const row = tableRows(b.page).filter({ hasText: 'e2e_app' });
    await clickRowAction(row, 'client-row-reset-secret');
    await confirm(b.page);
    await shownSecret();
    await closeSecret();
  });
});

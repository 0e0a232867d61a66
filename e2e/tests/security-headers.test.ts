import type { ConsoleMessage, Response } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useBrowser } from '../browser.js';
import { openMenu, signIn } from '../flows.js';

const b = useBrowser();

/** CSP violations seen in any page or frame of the browser. */
const violations: string[] = [];
const onConsole = (m: ConsoleMessage) => {
  if (/Content Security Policy|CSP violation/i.test(m.text())) violations.push(m.text());
};

beforeAll(async () => {
  // a DevTools-injected script: it runs in every document and frame whatever their CSP
  await b.context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} on ${location.href}`));
  });
  b.context.on('console', onConsole);
});
beforeEach(() => {
  violations.length = 0;
});

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

describe('the console page', () => {
  it('is served with the security headers, its scripts compressed, and loads without CSP violations', async () => {
    const scripts: Response[] = [];
    const onResponse = (r: Response) => {
      if (new URL(r.url()).pathname.endsWith('.js')) scripts.push(r);
    };
    b.page.on('response', onResponse);
    await b.page.goto('about:blank');
    const doc = await b.page.goto(`${b.baseUrl}/login`);
    await b.page.getByTestId('login-username').waitFor();
    await b.page.waitForLoadState('networkidle');
    b.page.off('response', onResponse);

    const headers = doc!.headers();
    expect(doc!.status()).toBe(200);
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['cache-control']).toBe('no-cache');

    // the entry script named by index.html, and every other script, compressed and cached for good
    const entry = await b.page.locator('script[type="module"][src]').getAttribute('src');
    const main = scripts.find((r) => new URL(r.url()).pathname === entry);
    expect(main, `the entry script ${entry}`).toBeDefined();
    expect(['br', 'gzip']).toContain(main!.headers()['content-encoding']);
    expect(main!.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(main!.headers()['x-content-type-options']).toBe('nosniff');
    let transferred = 0;
    for (const r of scripts) {
      const size = (await r.request().sizes()).responseBodySize;
      transferred += size;
      // a file of a few bytes is left plain by the build: compressing would not make it smaller
      if (size > 200) expect(['br', 'gzip'], r.url()).toContain(r.headers()['content-encoding']);
    }
    const mainSize = (await main!.request().sizes()).responseBodySize;
    console.log(`sign-in page: ${scripts.length} scripts, ${kb(transferred)} transferred (${main!.headers()['content-encoding']}); entry ${entry} ${kb(mainSize)}`);

    expect(violations, JSON.stringify(violations)).toEqual([]);
  });

  it('signs in, opens list and dashboard pages and an embedded page of its own origin without CSP violations', async () => {
    await signIn(b.page, b.baseUrl);
    await openMenu(b.page, 'desk', 'notice');
    await b.page.getByTestId('resource-page').filter({ visible: true }).waitFor();
    await b.page.goto(`${b.baseUrl}/wel/dashboard`);
    await b.page.getByTestId('side-menu').waitFor();
    await b.page.waitForLoadState('networkidle');

    // an iframe tab (/myiframe) framing the console's own origin: sandboxed, inside the layout
    const src = `${b.baseUrl}/version.json`;
    await b.page.goto(`${b.baseUrl}/myiframe/version?src=${encodeURIComponent(src)}`);
    await b.page.getByTestId('side-menu').waitFor();
    await b.page.frameLocator('[data-testid="iframe-frame"]').locator('body', { hasText: 'version' }).waitFor();
    await b.page.waitForLoadState('networkidle');

    expect(violations, JSON.stringify(violations)).toEqual([]);
  });
});

describe('the API documentation', () => {
  it('still loads at /api/docs', async () => {
    await b.page.goto(`${b.baseUrl}/api/docs`);
    await b.page.locator('.swagger-ui .opblock').first().waitFor();
    expect(await b.page.locator('.swagger-ui .opblock').count()).toBeGreaterThan(10);
    expect(violations, JSON.stringify(violations)).toEqual([]);
  });
});

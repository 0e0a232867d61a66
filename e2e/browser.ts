import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';

export const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

export interface BrowserHarness {
  baseUrl: string;
  context: BrowserContext;
  page: Page;
  /** a fresh page (and drops the previous one) */
  newPage(): Promise<Page>;
}

/**
 * One Chromium for the test file; a screenshot of the page is kept for every failed test. `timezoneId`
 * runs the browser in another zone than the machine's (e.g. to test the server's display zone).
 */
export function useBrowser(options: { timezoneId?: string } = {}): BrowserHarness {
  const h = { baseUrl: inject('baseUrl') } as BrowserHarness;
  // requests still waiting for an answer, reported with a failed test's screenshot
  const pending = new Map<unknown, string>();
  const watch = (page: Page) => {
    page.on('request', (r) => pending.set(r, `${new Date().toISOString()} ${r.method()} ${r.url()}`));
    page.on('requestfinished', (r) => pending.delete(r));
    page.on('requestfailed', (r) => pending.delete(r));
  };
  let profile = '';
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
    h.context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      viewport: { width: 1440, height: 900 },
      locale: 'zh-CN',
      ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
      // the console honours it by turning antd's animations off: no click lands on a dialog still zooming in
      reducedMotion: 'reduce',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    h.context.on('page', watch);
    h.page = h.context.pages()[0] ?? (await h.context.newPage());
    watch(h.page);
  });
  h.newPage = async () => {
    await h.page.close();
    h.page = await h.context.newPage();
    return h.page;
  };
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    const name = ctx.task.name.replace(/[^\w\u4e00-\u9fa5-]+/g, '_').slice(0, 80);
    await h.page?.screenshot({ path: join(ARTIFACTS, `failed-${name}.png`) }).catch(() => undefined);
    if (pending.size) console.error(`requests without an answer when "${ctx.task.name}" failed:\n${[...pending.values()].join('\n')}`);
  });
  afterAll(async () => {
    await h.context?.close();
    rmSync(profile, { recursive: true, force: true });
  });
  return h;
}

/** A second Chromium, for other users signed in beside the one of the test file's page (its own storage). */
export function launchSecondBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
}

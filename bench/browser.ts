/**
 * What the console benches share (shell.ts, cold-page.ts): the built server on a fresh PGlite folder, headless
 * Chromium as the e2e tests launch it, a signed-in browser state, and the scripts a page fetches.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';
import { freePort } from './measure.js';

export const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const VIEWPORT = { width: 1440, height: 900 };

/** `node server/dist/main.js` serving the built console (web/dist) on a free port, on the PGlite folder given. */
export async function startBuiltServer(dataDir: string, webDir = join(root, 'web/dist')): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'server/dist/main.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEB_DIR: webDir, DATABASE_URL: '', REDIS_URL: '' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  // a first start migrates and seeds the database: on a busy machine that takes minutes
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/version.json`)).ok) return { child, baseUrl };
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stopServer(child);
  throw new Error('server did not start within 300 s');
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
}

export interface ScriptFile { name: string; raw: number; gzip: number }

/** JavaScript files a page fetches until the network is idle, with their raw and gzip (level 6) sizes. */
export async function initialJs(page: Page, load: () => Promise<void>, webDir = join(root, 'web/dist')): Promise<{ files: ScriptFile[] }> {
  const urls = new Set<string>();
  const onResponse = (r: { url(): string; request(): { resourceType(): string } }) => {
    if (r.request().resourceType() === 'script') urls.add(r.url());
  };
  page.on('response', onResponse);
  await load();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const files = [];
  for (const url of urls) {
    const name = new URL(url).pathname;
    const body = readFileSync(join(webDir, name));
    files.push({ name, raw: body.length, gzip: gzipSync(body, { level: 6 }).length });
  }
  return { files: files.sort((a, b) => b.gzip - a.gzip) };
}

/** Signs admin of tenant 000000 in through the login page; answers the file of the browser state. */
export async function signedInState(browser: Browser, baseUrl: string): Promise<string> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await page.getByTestId('login-tenant').fill('000000');
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill('admin');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('side-menu').waitFor();
  const file = join(tmpdir(), `console-bench-state-${process.pid}.json`);
  await context.storageState({ path: file });
  await context.close();
  return file;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
export const kb = (n: number) => (n / 1024).toFixed(1);

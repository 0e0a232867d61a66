/**
 * Console shell benchmark (bench/RESULTS.md, section "Console shell"):
 *
 *   npm run bench:shell -w bench [-- --runs=10 --skip-build --results=bench/RESULTS.md]
 *
 * 1. builds the product (unless --skip-build) and starts `node server/dist/main.js` on a fresh PGlite
 *    data folder;
 * 2. in headless Chromium, loads /login in a fresh browser context and records every JavaScript file
 *    fetched until the network is idle: their gzip size (level 6, what a reverse proxy serves) is the
 *    login page's initial JS; the same for the first page after sign-in (/wel/index with a session) and for a
 *    list page opened directly (/desk/notice: the generic list page and the definitions);
 * 3. measures navigation → sidebar visible on /wel/index `runs` times, cold (new context, empty cache)
 *    and warm (reload of an open page), and reports the median and the worst run;
 * 4. writes the section between the `shell` markers of RESULTS.md.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    'skip-build': { type: 'boolean', default: false },
    results: { type: 'string', default: join(here, 'RESULTS.md') },
  },
});
const RUNS = Number(opt.runs);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 100) throw new Error(`--runs must be 1..100, got ${opt.runs}`);
const TARGET_KB = 350;
const TARGET_MS = 1500;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'server/dist/main.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEB_DIR: join(root, 'web/dist'), DATABASE_URL: '', REDIS_URL: '' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 450; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/version.json`)).ok) return { child, baseUrl };
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

/** JavaScript files a page fetches until the network is idle, with their raw and gzip sizes. */
async function initialJs(page: Page, load: () => Promise<void>): Promise<{ files: Array<{ name: string; raw: number; gzip: number }> }> {
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
    const body = readFileSync(join(root, 'web/dist', name));
    files.push({ name, raw: body.length, gzip: gzipSync(body, { level: 6 }).length });
  }
  return { files: files.sort((a, b) => b.gzip - a.gzip) };
}

async function signedInState(browser: Browser, baseUrl: string): Promise<string> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
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

/** ms from the start of navigation until the sidebar is visible (measured in the page's own clock). */
async function sidebarVisibleMs(page: Page, go: () => Promise<unknown>): Promise<number> {
  await go();
  await page.getByTestId('side-menu').waitFor({ state: 'visible' });
  return page.evaluate(() => performance.now());
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const kb = (n: number) => (n / 1024).toFixed(1);

async function main() {
  if (!opt['skip-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-shell-'));
  const { child, baseUrl } = await startServer(dataDir);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    });
    const loginCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const loginPage = await loginCtx.newPage();
    const login = await initialJs(loginPage, async () => { await loginPage.goto(`${baseUrl}/login`); });
    await loginCtx.close();

    const state = await signedInState(browser, baseUrl);
    const firstCtx = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: state });
    const firstPage = await firstCtx.newPage();
    const first = await initialJs(firstPage, async () => { await firstPage.goto(`${baseUrl}/wel/index`); });
    await firstCtx.close();
    // a menu page opened directly: the generic list page, its definitions and the notice screen's own code
    const listCtx = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: state });
    const listPage = await listCtx.newPage();
    const list = await initialJs(listPage, async () => { await listPage.goto(`${baseUrl}/desk/notice`); });
    await listCtx.close();

    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: state });
      const page = await ctx.newPage();
      cold.push(await sidebarVisibleMs(page, () => page.goto(`${baseUrl}/wel/index`)));
      await page.waitForLoadState('networkidle');
      warm.push(await sidebarVisibleMs(page, () => page.reload()));
      await ctx.close();
    }
    await rm(state, { force: true });

    const total = (r: typeof login) => r.files.reduce((s, f) => s + f.gzip, 0);
    const rows = (r: typeof login) => r.files.map((f) => `| \`${f.name}\` | ${kb(f.raw)} | ${kb(f.gzip)} |`).join('\n');
    const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
    const section = `### Console shell (\`npm run bench:shell -w bench\`)

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores (load average before: ${loadavg().map((l) => l.toFixed(2)).join(' / ')}),
headless Chromium, the built console served by \`server/dist/main.js\` on PGlite over loopback. Sizes are gzip level 6
of every script the page fetched until the network went idle.

| page | scripts | initial JS (gzip) | target |
|---|---|---|---|
| /login | ${login.files.length} | ${kb(total(login))} KB | < ${TARGET_KB} KB: ${verdict(total(login) < TARGET_KB * 1024)} |
| first page after sign-in (/wel/index) | ${first.files.length} | ${kb(total(first))} KB | < ${TARGET_KB} KB: ${verdict(total(first) < TARGET_KB * 1024)} |
| a list page opened directly (/desk/notice) | ${list.files.length} | ${kb(total(list))} KB | |

| navigation → sidebar visible, ${RUNS} runs | median | worst | target |
|---|---|---|---|
| cold (new browser context, empty cache) | ${median(cold).toFixed(0)} ms | ${Math.max(...cold).toFixed(0)} ms | median < ${TARGET_MS} ms: ${verdict(median(cold) < TARGET_MS)} |
| warm (reload, cached scripts) | ${median(warm).toFixed(0)} ms | ${Math.max(...warm).toFixed(0)} ms | |

<details><summary>Scripts of each page (raw KB, gzip KB)</summary>

**/login**

| file | raw | gzip |
|---|---|---|
${rows(login)}

**/wel/index**

| file | raw | gzip |
|---|---|---|
${rows(first)}

**/desk/notice**

| file | raw | gzip |
|---|---|---|
${rows(list)}

</details>`;
    writeSection(opt.results!, section);
    console.log(section);
  } finally {
    await browser?.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

function writeSection(file: string, section: string): void {
  const start = '<!-- shell:start -->';
  const end = '<!-- shell:end -->';
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const block = `${start}\n${section}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, text);
}

await main();

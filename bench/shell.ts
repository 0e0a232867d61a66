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
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Browser, type Page } from 'playwright-core';
import { initialJs, kb, launchChromium, median, root, signedInState, startBuiltServer, stopServer, VIEWPORT } from './browser.js';

const here = dirname(fileURLToPath(import.meta.url));
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

/** ms from the start of navigation until the sidebar is visible (measured in the page's own clock). */
async function sidebarVisibleMs(page: Page, go: () => Promise<unknown>): Promise<number> {
  await go();
  await page.getByTestId('side-menu').waitFor({ state: 'visible' });
  return page.evaluate(() => performance.now());
}

async function main() {
  if (!opt['skip-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-shell-'));
  const { child, baseUrl } = await startBuiltServer(dataDir);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const loginCtx = await browser.newContext({ viewport: VIEWPORT });
    const loginPage = await loginCtx.newPage();
    const login = await initialJs(loginPage, async () => { await loginPage.goto(`${baseUrl}/login`); });
    await loginCtx.close();

    const state = await signedInState(browser, baseUrl);
    const firstCtx = await browser.newContext({ viewport: VIEWPORT, storageState: state });
    const firstPage = await firstCtx.newPage();
    const first = await initialJs(firstPage, async () => { await firstPage.goto(`${baseUrl}/wel/index`); });
    await firstCtx.close();
    // a menu page opened directly: the generic list page, its definitions and the notice screen's own code
    const listCtx = await browser.newContext({ viewport: VIEWPORT, storageState: state });
    const listPage = await listCtx.newPage();
    const list = await initialJs(listPage, async () => { await listPage.goto(`${baseUrl}/desk/notice`); });
    await listCtx.close();

    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const ctx = await browser.newContext({ viewport: VIEWPORT, storageState: state });
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
    await stopServer(child);
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

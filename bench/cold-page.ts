/**
 * A list screen's first visit (issue 26; bench/RESULTS.md, section "Cold list pages"):
 *
 *   npm run bench:cold -w bench [-- --runs=9 --skip-build --label=after --web=web/dist --results=bench/RESULTS.md]
 *
 * 1. builds the console and the server (unless --skip-build) and starts `node server/dist/main.js` on a fresh
 *    PGlite folder; gives 设备查询 rows: a product and a batch of 3 devices through the API, then, the server
 *    stopped, their state rows as the devices' first reports would leave them (SQL on the folder), and starts
 *    the server again;
 * 2. for 角色管理 (/authority/role), 设备查询 (/device/info) and the dashboard (/wel/dashboard), in headless
 *    Chromium, signed in, in a new browser context each time (empty cache), `runs` times each, median and worst
 *    of the time until the first table row is in the DOM (the dashboard: its first figure), in the page's clock:
 *    - first visit: from the router's navigation to the screen, in a console open and settled on its home page
 *      (what an operator opening a screen from the menu waits for; none of the screen's code was loaded);
 *    - cold load: from the start of the navigation to the screen's URL (the whole console boots first);
 * 3. once per page, the scripts it fetched until the network went idle (raw and gzip level 6);
 * 4. writes the section `results:cold-<label>` of RESULTS.md, with the load average before and after.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { initialJs, kb, launchChromium, median, root, signedInState, startBuiltServer, stopServer, VIEWPORT, type ScriptFile } from './browser.js';
import { openPgliteFolder } from './data.js';
import { BASIC, signIn } from './measure.js';
import { writeSection } from './report.js';

const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '9' },
    'skip-build': { type: 'boolean', default: false },
    label: { type: 'string', default: 'after' },
    results: { type: 'string', default: join(root, 'bench/RESULTS.md') },
    // another build of the console to serve (a copy of web/dist kept from before a change), with --skip-build
    web: { type: 'string', default: join(root, 'web/dist') },
  },
});
const RUNS = Number(opt.runs);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 100) throw new Error(`--runs must be 1..100, got ${opt.runs}`);
if (!/^[\w-]{1,32}$/.test(opt.label!)) throw new Error(`--label must be a word, got ${opt.label}`);
const TARGET_MS = 1500;

interface Screen { name: string; path: string; shown: string; what: string }
const FIRST_ROW = '[data-testid="resource-table"] tbody tr.ant-table-row';
const SCREENS: Screen[] = [
  { name: '角色管理', path: '/authority/role', shown: FIRST_ROW, what: 'first table row' },
  { name: '设备查询', path: '/device/info', shown: FIRST_ROW, what: 'first table row' },
  { name: 'dashboard', path: '/wel/dashboard', shown: '[data-testid="dash-users-total"]', what: 'first figure' },
];

async function post<T>(baseUrl: string, token: string, path: string, json: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST', headers: { authorization: BASIC, 'blade-auth': `bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(json),
  });
  const body = (await res.json()) as { success: boolean; data: T; msg: string };
  if (!body.success) throw new Error(`${path}: ${body.msg}`);
  return body.data;
}

/** A product and a batch of three devices. */
async function seedDevices(baseUrl: string): Promise<void> {
  const token = await signIn(baseUrl, '000000');
  const call = <T>(path: string, json: unknown) => post<T>(baseUrl, token, path, json);
  const type = await call<{ id: string }>('/api/ymy-product/type/submit', { typeName: 'Bench 门锁', typeCode: 'BENCH-LOCK' });
  const model = await call<{ id: string }>('/api/ymy-product/model/submit', { typeId: type.id, modelName: 'Bench M1', modelCode: 'BENCH-M1' });
  const product = await call<{ id: string }>('/api/ymy-product/product/submit', {
    productName: 'Bench 锁', productCode: 'BENCH-P1', typeId: type.id, modelId: model.id, cloudVendor: 1, cloudProductId: 'BENCHPROD',
  });
  const factory = await call<{ id: string }>('/sc/ymy-ipc/back/add-factory', { factoryName: 'Bench 工厂', factoryCode: 'BENCH-F1' });
  await call('/sc/ymy-ipc/back/add-batch', { batchNo: 'BENCH-B1', factoryId: factory.id, productId: product.id, cloudVendor: 1, quantity: 3, snPrefix: 'bnc' });
}

/** The state rows 设备查询 lists (written by the device gateway when a device reports), for the batch's devices. */
async function reportDevices(dataDir: string): Promise<void> {
  const db = await openPgliteFolder(dataDir);
  try {
    const { affectedRows } = await db.query(`INSERT INTO ymy_device_status (id, sn, product_id, online, firmware_version, last_seen_time)
      SELECT id, sn, product_id, 1, '1.0.0', now() FROM ymy_factory_device ON CONFLICT DO NOTHING`);
    if (!affectedRows) throw new Error('no device state rows written');
  } finally {
    await db.close();
  }
}

/**
 * A screen's first visit inside a console already open (what an operator does: sign in, land on the home
 * page, open the screen from the menu): in a new context (empty cache), the home page is loaded and left to
 * settle (network idle), then the router is sent to `path` as the menu's links do (history + popstate); ms
 * from then until `selector` is in the DOM. Nothing of the screen was loaded before: the home page does not
 * fetch list pages' code.
 */
async function firstVisitMs(browser: Browser, state: string, baseUrl: string, path: string, selector: string): Promise<number> {
  const ctx = await browser.newContext({ viewport: VIEWPORT, storageState: state });
  try {
    const page = await ctx.newPage();
    await page.goto(`${baseUrl}/wel/index`);
    await page.getByTestId('home-greeting').waitFor({ timeout: 120_000 });
    await page.waitForLoadState('networkidle');
    return await page.evaluate(({ sel, to }) => new Promise<number>((resolve) => {
      const start = performance.now();
      const observer = new MutationObserver(() => {
        if (!document.querySelector(sel)) return;
        observer.disconnect();
        resolve(performance.now() - start);
      });
      observer.observe(document, { childList: true, subtree: true });
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }), { sel: selector, to: path });
  } finally {
    await ctx.close();
  }
}

/** ms from the start of navigation until `selector` is in the DOM, in a new context (empty cache). */
async function coldMs(browser: Browser, state: string, url: string, selector: string): Promise<number> {
  const ctx = await browser.newContext({ viewport: VIEWPORT, storageState: state });
  try {
    const page = await ctx.newPage();
    // an observer from the first script on, so that the time is when the element came, not when the bench looked
    await page.addInitScript((sel: string) => {
      const w = window as unknown as { __shownAt?: number };
      new MutationObserver((_m, observer) => {
        if (w.__shownAt === undefined && document.querySelector(sel)) {
          w.__shownAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    }, selector);
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { __shownAt?: number }).__shownAt !== undefined, undefined, { timeout: 120_000 });
    return page.evaluate(() => (window as unknown as { __shownAt: number }).__shownAt);
  } finally {
    await ctx.close();
  }
}

async function scriptsOf(browser: Browser, state: string, url: string, selector: string): Promise<ScriptFile[]> {
  const ctx = await browser.newContext({ viewport: VIEWPORT, storageState: state });
  const page = await ctx.newPage();
  const { files } = await initialJs(page, async () => {
    await page.goto(url);
    await page.locator(selector).first().waitFor();
  }, opt.web);
  await ctx.close();
  return files;
}

interface Measured { screen: Screen; times: number[]; visits: number[]; files: ScriptFile[] }

function render(measured: Measured[], loadBefore: number[], loadAfter: number[]): string {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const sum = (fs: ScriptFile[], k: 'raw' | 'gzip') => fs.reduce((s, f) => s + f[k], 0);
  const met = (xs: number[]) => (median(xs) < TARGET_MS ? 'met' : '**missed**');
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const rows = measured.map(({ screen, times, visits, files }) =>
    `| ${screen.name} (\`${screen.path}\`) | ${screen.what} | ${ms(median(visits))} | ${ms(Math.max(...visits))} | ${met(visits)} | ${ms(median(times))} | ${ms(Math.max(...times))} | ${met(times)} | ${files.length} | ${kb(sum(files, 'raw'))} KB | ${kb(sum(files, 'gzip'))} KB |`);
  const detail = measured.map(({ screen, files }) => `**${screen.path}** (largest ten)\n\n| file | raw KB | gzip KB |\n|---|---|---|\n${
    files.slice(0, 10).map((f) => `| \`${f.name}\` | ${kb(f.raw)} | ${kb(f.gzip)} |`).join('\n')}`).join('\n\n');
  return `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores, load average (1 / 5 / 15 min) ${load(loadBefore)} before and ${load(loadAfter)} after;
headless Chromium 1440×900, signed in as admin of 000000, a new browser context (empty cache) for every run; the built console served
by \`server/dist/main.js\` on PGlite over loopback. *First visit*: the console open on its home page (settled), the screen
opened from the menu (router navigation), none of its code loaded before. *Cold load*: the screen's URL opened in the new
context (the whole console boots first). Scripts: every script the cold load fetched until the network went idle.

| screen | until | first visit: median of ${RUNS} | worst | < ${TARGET_MS} ms | cold load: median of ${RUNS} | worst | < ${TARGET_MS} ms | scripts | raw | gzip |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

<details><summary>Largest scripts of each screen</summary>

${detail}

</details>`;
}

async function main() {
  if (!opt['skip-build']) {
    execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
    execFileSync('npm', ['run', 'build', '-w', 'server'], { cwd: root, stdio: 'inherit' });
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-cold-'));
  const first = await startBuiltServer(dataDir, opt.web);
  try {
    await seedDevices(first.baseUrl);
  } finally {
    await stopServer(first.child);
  }
  await reportDevices(dataDir);
  const { child, baseUrl } = await startBuiltServer(dataDir, opt.web);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const state = await signedInState(browser, baseUrl);
    const loadBefore = loadavg();
    const measured: Measured[] = SCREENS.map((screen) => ({ screen, times: [], visits: [], files: [] }));
    // one run of every screen after the other, so that a burst of load elsewhere falls on all of them alike
    for (let i = 0; i < RUNS; i++) {
      for (const m of measured) {
        m.times.push(await coldMs(browser, state, `${baseUrl}${m.screen.path}`, m.screen.shown));
        m.visits.push(await firstVisitMs(browser, state, baseUrl, m.screen.path, m.screen.shown));
      }
    }
    for (const m of measured) m.files = await scriptsOf(browser, state, `${baseUrl}${m.screen.path}`, m.screen.shown);
    const section = render(measured, loadBefore, loadavg());
    await rm(state, { force: true });
    writeSection(opt.results!, `cold-${opt.label}`, section);
    console.log(section);
  } finally {
    await browser?.close();
    await stopServer(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();

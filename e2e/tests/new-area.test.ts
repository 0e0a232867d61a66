import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiToken, freePort, md5 } from '../api.js';
import { useBrowser } from '../browser.js';
import { signIn, submitResourceForm, tableRows, waitFor } from '../flows.js';

/**
 * The proof of docs/adding-an-area.md: the memo area (e2e/fixtures/new-area, the files a developer writes) is
 * added to a copy of the sources through its manifests, one entry in each registry and its generated migration;
 * the copy is type-checked, built and started, and the area's screen, list, search, submit, permission checks and
 * tenant isolation work over HTTP and in Chromium.
 */

const repo = new URL('../../', import.meta.url).pathname;
const fixture = new URL('../fixtures/new-area/', import.meta.url).pathname;
/** What the copy holds: the three packages, the rules script and the root files they build with. */
const SOURCES = ['contract', 'server', 'web', 'scripts', 'package.json', 'tsconfig.base.json'];
const SKIPPED = new Set(['node_modules', 'dist', 'data', '.tmp']);
const AREA_DIRS = ['contract/src/areas/memo/', 'server/src/areas/memo/', 'web/src/areas/memo/'];

/** Each registry and the entry the guide tells to add to it: its import and its place in the list. */
const REGISTRIES = [
  { file: 'contract/src/areas/index.ts', importLine: "import memo from './memo/index.js';", entry: '  memo,' },
  { file: 'server/src/areas/index.ts', importLine: "import { memoArea } from './memo/index.js';", entry: '  memoArea,' },
  { file: 'web/src/areas/index.ts', importLine: "import { memoArea } from './memo';", entry: '  memoArea,' },
];

const NOTE = '/api/ymy-memo/note';
const SYS = '/api/blade-system';
const DEMO_TENANT = '541742';

let copy = '';
let server: ChildProcess | undefined;
let baseUrl = '';
let changes: { added: string[]; removed: string[]; changed: string[] } = { added: [], removed: [], changed: [] };
const timings: Record<string, number> = {};
let checks: Promise<string[]> = Promise.resolve([]);

function run(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} (in ${relative(copy, cwd) || '.'}) exited with ${code}:\n${out}`))));
  });
}

async function timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await fn();
  } finally {
    timings[what] = Date.now() - start;
  }
}

function filesUnder(root: string, dir = ''): string[] {
  const path = join(root, dir);
  if (!statSync(path).isDirectory()) return [dir];
  return readdirSync(path).filter((n) => !SKIPPED.has(n)).flatMap((n) => filesUnder(root, dir ? `${dir}/${n}` : n));
}

/** Files added, removed and changed in the copy against the repository, over the copied sources. */
function compareWithRepo(): typeof changes {
  const before = new Set(SOURCES.flatMap((s) => filesUnder(repo, s)));
  const after = new Set(SOURCES.flatMap((s) => filesUnder(copy, s)));
  return {
    added: [...after].filter((f) => !before.has(f)).sort(),
    removed: [...before].filter((f) => !after.has(f)).sort(),
    changed: [...after].filter((f) => before.has(f) && !readFileSync(join(repo, f)).equals(readFileSync(join(copy, f)))).sort(),
  };
}

/**
 * node_modules folders whose entries are the repository's (the root's, and a package's own where npm put one),
 * but `@console/*` are the copy's own packages: the copy's code is what builds and runs.
 */
function linkNodeModules(): void {
  for (const dir of ['', 'contract', 'server', 'web']) {
    const real = join(repo, dir, 'node_modules');
    if (!existsSync(real)) continue;
    mkdirSync(join(copy, dir, 'node_modules'), { recursive: true });
    for (const name of readdirSync(real)) {
      if (name !== '@console') symlinkSync(join(real, name), join(copy, dir, 'node_modules', name));
    }
  }
  mkdirSync(join(copy, 'node_modules/@console'));
  for (const pkg of ['contract', 'server', 'web']) symlinkSync(join(copy, pkg), join(copy, 'node_modules/@console', pkg));
}

/** Adds the area's entry to a registry: its import after the last area import, its name last in the list. */
function register(r: (typeof REGISTRIES)[number]): void {
  const path = join(copy, r.file);
  const lines = readFileSync(path, 'utf8').split('\n');
  const areaImports = lines.flatMap((l, i) => (/^import .* from '\.\/\w+(\/index\.js)?';$/.test(l) ? [i] : []));
  const lastImport = areaImports[areaImports.length - 1]!;
  lines.splice(lastImport + 1, 0, r.importLine);
  const list = lines.findIndex((l) => /^(export )?const (AREAS|areas)\b.*= \[$/.test(l));
  const end = lines.findIndex((l, i) => i > list && /^\]/.test(l));
  lines.splice(end, 0, r.entry);
  writeFileSync(path, lines.join('\n'));
}

async function startServer(): Promise<void> {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // always a fresh PGlite folder and memory for the key-value store, whatever the suite runs on
  const { DATABASE_URL: _db, REDIS_URL: _kv, ...env } = process.env;
  server = spawn(process.execPath, [join(copy, 'server/dist/main.js')], {
    cwd: copy,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(copy, 'data'), WEB_DIR: join(copy, 'web/dist'),
      REDIS_PREFIX: `console-new-area:${process.pid}:`, LOG_LEVEL: 'warn', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', PUBLIC_URL: baseUrl },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the copy's server exited with code ${server.exitCode}`);
    if (await fetch(`${baseUrl}/version.json`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the copy\'s server did not answer within 90 s');
}

interface Answer<T> {
  status: number;
  body: { code: number; success: boolean; msg: string; data: T };
}

async function call<T>(token: string, path: string, json?: unknown): Promise<Answer<T>> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'Blade-Auth': `bearer ${token}`,
      ...(json === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as Answer<T>['body'] };
}

async function signInApi(tenant: string, user: string, password: string): Promise<string> {
  const token = await apiToken(baseUrl, tenant, user, password);
  if (!token) throw new Error(`no token for ${tenant}/${user}`);
  return token;
}

interface Memo { id: string; title: string; content?: string; tenantId?: string }
interface Page<T> { records: T[]; total: number }
interface MenuRoute { code: string; path: string; name: string; children?: MenuRoute[] }

const flatten = (tree: MenuRoute[]): MenuRoute[] => tree.flatMap((m) => [m, ...flatten(m.children ?? [])]);

const b = useBrowser();

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), 'console-new-area-'));
  await timed('copy', async () => {
    for (const s of SOURCES) cpSync(join(repo, s), join(copy, s), { recursive: true, filter: (src) => !SKIPPED.has(src.split('/').pop()!) });
    cpSync(fixture, copy, { recursive: true });
    for (const r of REGISTRIES) register(r);
    linkNodeModules();
  });
  // the guide's step for the area's table: its migration, generated from the tables
  await timed('migration', () => run('npx', ['drizzle-kit', 'generate', '--name', 'memo'], join(copy, 'server')));
  changes = compareWithRepo();
  // the type checks and the rules run beside the build and the start; their test waits for them
  checks = timed('checks', () => Promise.all([
    ...['contract', 'server', 'web'].map((p) => run('npx', ['tsc', '-p', p], copy)),
    run(process.execPath, ['scripts/architecture.mjs'], copy),
  ]));
  checks.catch(() => undefined);
  await timed('build', async () => {
    await run('npm', ['run', 'build'], join(copy, 'web'));
    await run('npm', ['run', 'build'], join(copy, 'server'));
  });
  await timed('start', startServer);
}, 600_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  if (copy) rmSync(copy, { recursive: true, force: true });
  console.log(`new area: ${Object.entries(timings).map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
});

describe('a new area through its manifests alone', () => {
  it('touches nothing outside its three folders but one entry per registry and its migration', () => {
    const migration = changes.added.filter((f) => f.startsWith('server/drizzle/'));
    expect(migration).toEqual([expect.stringMatching(/^server\/drizzle\/\d{4}_memo\.sql$/), expect.stringMatching(/^server\/drizzle\/meta\/\d{4}_snapshot\.json$/)]);
    expect(changes.added.filter((f) => !f.startsWith('server/drizzle/'))).toEqual(
      filesUnder(fixture).sort(),
    );
    expect(changes.added.filter((f) => !f.startsWith('server/drizzle/')).every((f) => AREA_DIRS.some((d) => f.startsWith(d)))).toBe(true);
    expect(changes.removed).toEqual([]);
    expect(changes.changed).toEqual([...REGISTRIES.map((r) => r.file), 'server/drizzle/meta/_journal.json'].sort());
    for (const r of REGISTRIES) {
      const before = readFileSync(join(repo, r.file), 'utf8').split('\n');
      const after = readFileSync(join(copy, r.file), 'utf8').split('\n');
      expect(after.length - before.length).toBe(2);
      expect(after.filter((l) => l !== r.importLine && l !== r.entry)).toEqual(before);
    }
  });

  it('gets its table, search column and index from the generated migration, its row-level security from the shared step', () => {
    const sql = readFileSync(join(copy, changes.added.find((f) => f.endsWith('_memo.sql'))!), 'utf8');
    expect(sql).toMatch(/CREATE TABLE "ymy_memo_note"/);
    expect(sql).toMatch(/"title_grams"/);
    expect(sql).toMatch(/USING gin/);
    // nothing but the area's table: the tree's tables and their migrations agree
    expect(sql.match(/CREATE TABLE "(\w+)"/g)).toEqual(['CREATE TABLE "ymy_memo_note"']);
    expect(sql).not.toMatch(/ALTER TABLE "(?!ymy_memo_note")/);
    expect(sql).not.toMatch(/ROW LEVEL SECURITY/i);
  });

  it('passes the type checks and the architecture rules', async () => {
    const [, , , rules] = await checks;
    expect(rules).toMatch(/no problems/);
  }, 300_000);

  let admin = '';
  let platform = '';
  let noteId = '';

  it('opens its menu directory with its screen for the tenant\'s and the platform\'s administrators', async () => {
    admin = await signInApi(DEMO_TENANT, 'admin', 'admin');
    platform = await signInApi('000000', 'admin', 'admin');
    for (const token of [admin, platform]) {
      const routes = await call<MenuRoute[]>(token, `${SYS}/menu/routes`);
      const dir = routes.body.data.find((m) => m.code === 'memo');
      expect(dir).toMatchObject({ path: '/memo', name: '备忘管理' });
      expect(dir!.children).toEqual([expect.objectContaining({ code: 'memo_note', path: '/memo/note', name: '备忘录' })]);
    }
  });

  it('submits, lists, searches by its like field and answers the detail', async () => {
    const saved = await call<Memo>(admin, `${NOTE}/submit`, { title: '周会纪要 Weekly', content: '第一条', sort: 1 });
    expect(saved.body).toMatchObject({ code: 200, success: true });
    await call(admin, `${NOTE}/submit`, { title: '采购清单', content: '第二条', sort: 2 });
    const all = await call<Page<Memo>>(admin, `${NOTE}/list?current=1&size=10`);
    expect(all.body.data.total).toBe(2);
    const found = await call<Page<Memo>>(admin, `${NOTE}/list?current=1&size=10&title=${encodeURIComponent('会纪')}`);
    expect(found.body.data.records.map((r) => r.title)).toEqual(['周会纪要 Weekly']);
    noteId = found.body.data.records[0]!.id;
    const detail = await call<Memo>(admin, `${NOTE}/detail?id=${noteId}`);
    expect(detail.body.data).toMatchObject({ id: noteId, title: '周会纪要 Weekly', content: '第一条' });
  });

  it('answers its own message from its hook, in the caller\'s language', async () => {
    const refused = await call(admin, `${NOTE}/submit`, { title: '#draft' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('标题不能以 # 开头');
  });

  it('refuses list and submit to a role without the screen', async () => {
    const roles = await call<Array<{ id: string; roleAlias: string }>>(platform, `${SYS}/role/list`);
    const userRole = roles.body.data.find((r) => r.roleAlias === 'user')!;
    const depts = await call<Array<{ id: string }>>(platform, `${SYS}/dept/tree`);
    const created = await call(platform, `${SYS}/user/submit`, {
      account: 'memo_outsider', name: '局外人', realName: '局外人', deptId: depts.body.data[0]!.id, roleId: userRole.id, password: md5('First-pass-1'),
    });
    expect(created.body.success).toBe(true);
    // a password an administrator set is changed first (until then every change is refused for that reason)
    const first = await signInApi('000000', 'memo_outsider', 'First-pass-1');
    const changed = await call(first, `${SYS}/user/update-password`, { oldPassword: md5('First-pass-1'), newPassword: md5('Second-pass-2'), newPassword1: md5('Second-pass-2') });
    expect(changed.body.success).toBe(true);
    const outsider = await signInApi('000000', 'memo_outsider', 'Second-pass-2');
    expect((await call(outsider, `${NOTE}/list?current=1&size=10`)).status).toBe(403);
    expect((await call(outsider, `${NOTE}/submit`, { title: '不该存下' })).status).toBe(403);
    expect((await call(outsider, `${NOTE}/detail?id=${noteId}`)).status).toBe(403);
  });

  it('keeps each tenant\'s rows to itself', async () => {
    const own = await call<Memo>(platform, `${NOTE}/submit`, { title: '平台自己的备忘' });
    expect(own.body.success).toBe(true);
    const platformList = await call<Page<Memo>>(platform, `${NOTE}/list?current=1&size=50`);
    expect(platformList.body.data.records.map((r) => r.title)).toEqual(['平台自己的备忘']);
    const tenantList = await call<Page<Memo>>(admin, `${NOTE}/list?current=1&size=50`);
    expect(tenantList.body.data.records.map((r) => r.title).sort()).toEqual(['周会纪要 Weekly', '采购清单'].sort());
    const across = await call<Memo | null>(platform, `${NOTE}/detail?id=${noteId}`);
    expect(across.body.data?.title).not.toBe('周会纪要 Weekly');
  });

  it('shows its screen with its own line and the rows, and adds a row through the dialog, in zh and en at 1280 px', async () => {
    b.baseUrl = baseUrl;
    await b.page.setViewportSize({ width: 1280, height: 800 });
    await signIn(b.page, baseUrl, DEMO_TENANT);
    await b.page.getByTestId('menu-memo').click();
    await b.page.getByTestId('menu-memo_note').click();
    await b.page.waitForURL('**/memo/note');
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('memo-hint').getByText('备忘录只在本租户内可见。').waitFor();
    await waitFor(b.page, 'the tenant\'s two rows', async () => (await tableRows(b.page).count()) === 2);
    await expect.poll(() => b.page.getByTestId('resource-table').locator('th').allInnerTexts()).toEqual(expect.arrayContaining(['标题', '排序']));

    await b.page.getByTestId('resource-add').click();
    await b.page.locator('#resource_title').fill('浏览器里加的');
    await b.page.locator('#resource_content').fill('经由新增对话框');
    await submitResourceForm(b.page);
    await waitFor(b.page, 'three rows', async () => (await tableRows(b.page).count()) === 3);
    await tableRows(b.page).filter({ hasText: '浏览器里加的' }).waitFor();

    await b.page.getByTestId('user-menu').click();
    await b.page.getByTestId('lang-en').click();
    await b.page.getByTestId('memo-hint').getByText('Memos are seen within this tenant only.').waitFor();
    await expect.poll(() => b.page.getByTestId('resource-table').locator('th').allInnerTexts()).toEqual(expect.arrayContaining(['Title', 'Sort']));
    await b.page.getByTestId('resource-add').click();
    await b.page.locator('#resource_title').fill('Added in English');
    await submitResourceForm(b.page, 'Added');
    await waitFor(b.page, 'four rows', async () => (await tableRows(b.page).count()) === 4);
    const stored = await call<Page<Memo>>(admin, `${NOTE}/list?current=1&size=50&title=English`);
    expect(stored.body.data.records.map((r) => r.title)).toEqual(['Added in English']);
    expect(existsSync(join(copy, 'web/dist/index.html'))).toBe(true);
  });
});

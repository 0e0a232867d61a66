import type { Page } from '@console/contract';
import type { ImportProgress } from '@console/contract/io';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { multipart } from './multipart.js';
import { BASIC, useServer } from './harness.js';
import { grantCodes, ioNoticeBinding } from './io-resource.js';

const h = useServer({}, {}, { extraResources: [ioNoticeBinding] });
const PATH = '/api/blade-desk/notice-io';
type Notice = { id: string; title: string; category: number; categoryName: string; releaseTime: string; content: string | null; createUser: string; tenantId: string };

let admin: string; // 000000, administrator
let admin2: string; // 000000, another administrator
let demoAdmin: string; // 541742
let plain: string; // 000000, role user: no export/import codes

beforeAll(async () => {
  await grantCodes(h.server, ['notice_io', 'notice_io_add', 'notice_io_view', 'notice_io_export', 'notice_io_import'], ['administrator', 'admin']);
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  demoAdmin = (await h.login('541742', 'admin', 'admin')).access_token;
  await h.createUser('000000', 'io-admin2', 'pw', ['administrator']);
  admin2 = (await h.login('000000', 'io-admin2', 'pw')).access_token;
  await h.createUser('000000', 'io-plain', 'pw', ['user']);
  plain = (await h.login('000000', 'io-plain', 'pw')).access_token;
  for (const [title, category, releaseTime] of [['io-alpha-1', 1, '2024-05-01 08:00:00'], ['io-alpha-2', 2, '2024-05-02 09:30:00'], ['io-alpha-3', 1, '2024-05-03 10:00:00'], ['io-beta-1', 3, '2024-05-04 11:00:00']] as const) {
    const res = await h.call('POST', `${PATH}/submit`, { token: admin, body: { title, category, releaseTime, content: `<p>${title}</p>` } });
    expect(res.status).toBe(200);
  }
  const other = await h.call('POST', `${PATH}/submit`, { token: demoAdmin, body: { title: 'io-alpha-other-tenant', category: 1, releaseTime: '2024-05-01 08:00:00' } });
  expect(other.status).toBe(200);
});

const list = async (query: Record<string, string> = {}, token = admin) =>
  (await h.call<Page<Notice>>('GET', `${PATH}/list`, { token, query: { size: 500, ...query } })).body.data;

async function download(url: string, opts: { token?: string; lang?: 'zh' | 'en'; query?: Record<string, string>; noClient?: boolean } = {}) {
  const headers: Record<string, string> = {};
  if (!opts.noClient) headers.authorization = BASIC;
  if (opts.token) headers['blade-auth'] = `bearer ${opts.token}`;
  if (opts.lang) headers['accept-language'] = opts.lang;
  return h.server.app.inject({ method: 'GET', url, query: opts.query, headers });
}

async function sheetOf(body: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

async function xlsxOf(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sheet1');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function upload(data: Buffer | string, opts: { filename?: string; type?: string; token?: string; lang?: 'zh' | 'en'; query?: Record<string, string>; extra?: Array<{ name: string; data: string }> } = {}) {
  const { payload, contentType } = multipart([...(opts.extra ?? []), { name: 'file', filename: opts.filename ?? 'notices.xlsx', type: opts.type ?? 'application/octet-stream', data }]);
  const headers: Record<string, string> = { authorization: BASIC, 'blade-auth': `bearer ${opts.token ?? admin}`, 'content-type': contentType };
  if (opts.lang) headers['accept-language'] = opts.lang;
  const res = await h.server.app.inject({ method: 'POST', url: `${PATH}/import`, query: opts.query, headers, payload });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: { id: string } | null } };
}

async function finished(id: string, token = admin, lang?: 'zh' | 'en'): Promise<ImportProgress> {
  const until = Date.now() + 20_000;
  for (;;) {
    const res = await h.call<ImportProgress>('GET', `${PATH}/get-upload-progress`, { token, query: { id }, lang });
    expect(res.status).toBe(200);
    if (res.body.data.status !== 'running') return res.body.data;
    if (Date.now() > until) throw new Error(`import ${id} still running: ${JSON.stringify(res.body.data)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('export', () => {
  it('streams every row matching the list filters and sort, headed in the caller\'s language, dict names and wire datetimes', async () => {
    const res = await download(`${PATH}/export`, { token: admin, query: { title: 'io-alpha', descs: 'title' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''%E9%80%9A%E7%9F%A5%E5%85%AC%E5%91%8A-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const rows = await sheetOf(res.rawPayload);
    expect(rows[0]).toEqual(['通知标题', '通知类型', '发布时间', '通知内容']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['io-alpha-3', 'io-alpha-2', 'io-alpha-1']);
    expect(rows[1]).toEqual(['io-alpha-3', '发布通知', '2024-05-03 10:00:00', '<p>io-alpha-3</p>']);
    expect(rows[2]![1]).toBe('批转通知');

    const en = await sheetOf((await download(`${PATH}/export`, { token: admin, lang: 'en', query: { title: 'io-alpha', ascs: 'releaseTime' } })).rawPayload);
    expect(en[0]).toEqual(['Title', 'Category', 'Release time', 'Content']);
    expect(en.slice(1).map((r) => r[0])).toEqual(['io-alpha-1', 'io-alpha-2', 'io-alpha-3']);
    expect(en[2]![1]).toBe('Approval');
  });

  it('exports all rows, not one page, and only the caller\'s tenant', async () => {
    const all = await sheetOf((await download(`${PATH}/export`, { token: admin, query: { size: '1', current: '1' } })).rawPayload);
    const titles = all.slice(1).map((r) => r[0]);
    expect(titles).toEqual(expect.arrayContaining(['io-alpha-1', 'io-alpha-2', 'io-alpha-3', 'io-beta-1']));
    expect(titles).not.toContain('io-alpha-other-tenant');
    expect(titles.length).toBe((await list()).total);
    const demo = await sheetOf((await download(`${PATH}/export`, { token: demoAdmin, query: { title: 'io-' } })).rawPayload);
    expect(demo.slice(1).map((r) => r[0])).toEqual(['io-alpha-other-tenant']);
    // a category filter and a date filter, as the list takes them
    const cat = await sheetOf((await download(`${PATH}/export`, { token: admin, query: { category: '1', title: 'io-', releaseTime_datege: '2024-05-02' } })).rawPayload);
    expect(cat.slice(1).map((r) => r[0])).toEqual(['io-alpha-3']);
  });

  it('takes the token from ?blade-auth= (a download link) and checks the permission', async () => {
    const byLink = await download(`${PATH}/export`, { noClient: true, query: { 'blade-auth': `bearer ${admin}`, title: 'io-beta' } });
    expect(byLink.statusCode).toBe(200);
    expect((await sheetOf(byLink.rawPayload)).length).toBe(2);
    const anonymous = await download(`${PATH}/export`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 401, success: false });
    const denied = await download(`${PATH}/export`, { token: plain });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().msg).toContain('notice_io_export');
  });

  it('answers bad filters with the list\'s 400s (an envelope, not a broken file)', async () => {
    const res = await download(`${PATH}/export`, { token: admin, query: { nosuchfield: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, success: false });
    expect((await download(`${PATH}/export`, { token: admin, query: { ascs: 'content' } })).statusCode).toBe(400);
    expect((await download(`${PATH}/export`, { token: admin, query: { releaseTime_datege: 'yesterday' } })).statusCode).toBe(400);
  });
});

describe('import', () => {
  it('offers a template: the labels and one example row, which imports as it is', async () => {
    const res = await download(`${PATH}/import-template`, { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('.xlsx');
    const rows = await sheetOf(res.rawPayload);
    expect(rows[0]).toEqual(['通知标题', '通知类型', '发布时间', '通知内容']);
    expect(rows[1]![0]).toBe('示例通知标题');
    expect(rows[1]![1]).toBe('发布通知');
    expect(rows[1]![2]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await download(`${PATH}/import-template`, { token: plain })).statusCode).toBe(403);

    const started = await upload(res.rawPayload);
    expect(started.status).toBe(200);
    const done = await finished(started.body.data!.id);
    expect(done).toMatchObject({ status: 'done', total: 1, succeeded: 1, failed: 0, errors: [] });
    expect((await list({ title: '示例通知标题' })).total).toBe(1);
  });

  it('imports every row in one go: zh headers, dict labels or keys, Excel dates or wire text; audit columns and tenant set', async () => {
    const file = await xlsxOf([
      ['通知标题', '通知类型', '发布时间', '通知内容', '不相关的列'],
      ['io-imp-1', '发布通知', '2024-06-01 08:00:00', 'hello', 'x'],
      ['io-imp-2', 'Approval', new Date(Date.UTC(2024, 5, 2, 9, 30, 0)), null, 'y'],
      [],
      ['io-imp-3', 3, '2024-06-03', '<p>third</p>'],
    ]);
    const started = await upload(file);
    expect(started.status).toBe(200);
    expect(started.body.data!.id).toMatch(/^\d+$/);
    const done = await finished(started.body.data!.id);
    expect(done).toEqual({ id: started.body.data!.id, status: 'done', total: 3, processed: 3, succeeded: 3, failed: 0, errors: [] });
    const rows = (await list({ title: 'io-imp-', ascs: 'title' })).records;
    expect(rows.map((r) => [r.title, r.category, r.releaseTime, r.content])).toEqual([
      ['io-imp-1', 1, '2024-06-01 08:00:00', 'hello'],
      ['io-imp-2', 2, '2024-06-02 09:30:00', null],
      ['io-imp-3', 3, '2024-06-03 00:00:00', '<p>third</p>'],
    ]);
    const detail = await h.call<Notice>('GET', `${PATH}/detail`, { token: admin, query: { id: rows[0]!.id } });
    expect(detail.body.data.tenantId).toBe('000000');
    expect(detail.body.data.createUser).toMatch(/^\d+$/);
  });

  it('writes nothing when any row is bad, and reports each bad row by its spreadsheet row number', async () => {
    const before = (await list()).total;
    const file = await xlsxOf([
      ['Title', 'Category', 'Release time', 'Content'],
      ['io-bad-ok', 'Release', '2024-06-01 08:00:00', 'fine'], // row 2: good, still not written
      [null, 'Release', '2024-06-01 08:00:00', 'no title'], // 3: required missing
      ['x'.repeat(256), 'Release', '2024-06-01 08:00:00', ''], // 4: too long
      ['io-bad-date', 'Release', 'not a date', ''], // 5: bad date
      ['io-bad-ok', 'Release', '2024-06-01 08:00:00', 'again'], // 6: repeats row 2
      ['io-alpha-1', 'Release', '2024-06-01 08:00:00', ''], // 7: already in the table
      ['io-bad-dict', 'No such category', '2024-06-01 08:00:00', ''], // 8: unknown dictionary value
    ]);
    const started = await upload(file, { lang: 'en' });
    expect(started.status).toBe(200);
    const job = await finished(started.body.data!.id, admin, 'en');
    expect(job.status).toBe('failed');
    expect(job.total).toBe(7);
    expect(job.failed).toBe(6);
    expect(job.succeeded).toBe(0);
    expect(job.errors.map((e) => e.row)).toEqual([3, 4, 5, 6, 7, 8]);
    const [missing, long, date, inFile, inTable, dict] = job.errors.map((e) => e.message);
    expect(missing).toBe('Please enter the title');
    expect(long).toContain('at most 255');
    expect(date).toContain('not a valid time');
    expect(inFile).toBe('Title "io-bad-ok" repeats row 2');
    expect(inTable).toBe('Title "io-alpha-1" already exists');
    expect(dict).toBe('Category: no such value "No such category"');
    expect((await list()).total).toBe(before);
    expect((await list({ title: 'io-bad-ok' })).total).toBe(0);
  });

  it('updates the rows matched by the unique field with isCovering=1 (query or form field)', async () => {
    const before = (await list()).total;
    const file = await xlsxOf([['title', 'category', 'releaseTime', 'content'], ['io-alpha-2', 3, '2024-07-01 12:00:00', 'covered'], ['io-cover-new', 1, '2024-07-02 12:00:00', 'new']]);
    const refused = await finished((await upload(file)).body.data!.id);
    expect(refused.status).toBe('failed');
    expect(refused.errors).toEqual([{ row: 2, message: '通知标题「io-alpha-2」已存在' }]);
    const covered = await finished((await upload(file, { query: { isCovering: '1' } })).body.data!.id);
    expect(covered).toMatchObject({ status: 'done', succeeded: 2 });
    const [row] = (await list({ title: 'io-alpha-2' })).records;
    expect(row).toMatchObject({ category: 3, releaseTime: '2024-07-01 12:00:00', content: 'covered' });
    expect((await list()).total).toBe(before + 1);
    const file2 = await xlsxOf([['title', 'category', 'releaseTime'], ['io-alpha-3', 2, '2024-07-03 12:00:00']]);
    const byField = await finished((await upload(file2, { extra: [{ name: 'isCovering', data: '1' }] })).body.data!.id);
    expect(byField.status).toBe('done');
    expect((await list({ title: 'io-alpha-3' })).records[0]).toMatchObject({ category: 2 });
  });

  it('accepts a UTF-8 .csv with a BOM', async () => {
    const csv = '\ufeff通知标题,通知类型,发布时间,通知内容\r\nio-csv-1,发布通知,2024-08-01 10:00:00,"a, b"\r\nio-csv-2,2,2024-08-02 10:00:00,\r\n';
    const started = await upload(csv, { filename: 'notices.csv', type: 'text/csv' });
    expect(started.status).toBe(200);
    expect(await finished(started.body.data!.id)).toMatchObject({ status: 'done', total: 2, succeeded: 2 });
    expect((await list({ title: 'io-csv-1' })).records[0]).toMatchObject({ content: 'a, b', category: 1 });
  });

  it('shows a job only to the user who started it', async () => {
    const started = await upload(await xlsxOf([['通知标题', '通知类型', '发布时间'], ['io-own-1', 1, '2024-09-01 10:00:00']]));
    const id = started.body.data!.id;
    await finished(id);
    for (const token of [admin2, demoAdmin]) {
      const res = await h.call('GET', `${PATH}/get-upload-progress`, { token, query: { id } });
      expect(res.status).toBe(404);
    }
    expect((await h.call('GET', `${PATH}/get-upload-progress`, { token: admin, query: { id: '123' } })).status).toBe(404);
    expect((await h.call('GET', `${PATH}/get-upload-progress`, { token: admin, query: { id: 'x'.repeat(100) } })).status).toBe(400);
    expect((await h.call('GET', `${PATH}/get-upload-progress`, { token: plain, query: { id } })).status).toBe(403);
  });

  it('refuses an oversize file, garbage, a missing column and a non-multipart call with clear 4xx', async () => {
    const big = await upload(Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(21 * 1024 * 1024, 1)]), { lang: 'en' });
    expect(big.status).toBe(413);
    expect(big.body.msg).toBe('The import file must not exceed 20 MB');

    const text = await upload('hello, this is not a spreadsheet', { filename: 'a.txt', type: 'text/plain' });
    expect(text.status).toBe(400);
    expect(text.body.msg).toBe('只能导入 .xlsx 或 .csv 文件');
    const png = await upload(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), { filename: 'a.xlsx', lang: 'en' });
    expect(png.body.msg).toBe('Only .xlsx or .csv files can be imported');
    const brokenZip = await upload(Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 7)]), { lang: 'en' });
    expect(brokenZip.status).toBe(400);
    expect(brokenZip.body.msg).toBe('The file cannot be read; make sure it is a valid .xlsx or .csv file');
    const empty = await upload(Buffer.alloc(0));
    expect(empty.status).toBe(400);

    const noTitle = await upload(await xlsxOf([['通知类型', '发布时间'], [1, '2024-01-01 00:00:00']]));
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.msg).toBe('缺少必填列: 通知标题');

    const notMultipart = await h.call('POST', `${PATH}/import`, { token: admin, body: { file: 'x' } });
    expect(notMultipart.status).toBe(400);
    const wrongField = await h.server.app.inject({
      method: 'POST', url: `${PATH}/import`, headers: { authorization: BASIC, 'blade-auth': `bearer ${admin}`, 'content-type': multipart([{ name: 'other', filename: 'a.xlsx', data: 'x' }]).contentType },
      payload: multipart([{ name: 'other', filename: 'a.xlsx', data: 'x' }]).payload,
    });
    expect(wrongField.statusCode).toBe(400);
    expect((await upload('x', { token: plain })).status).toBe(403);
  });

  it('counts rows in the progress while it runs and reports the total (1,200 rows)', async () => {
    const rows: unknown[][] = [['通知标题', '通知类型', '发布时间']];
    for (let i = 0; i < 1200; i++) rows.push([`io-many-${String(i).padStart(4, '0')}`, (i % 3) + 1, '2024-10-01 10:00:00']);
    const started = await upload(await xlsxOf(rows));
    const done = await finished(started.body.data!.id);
    expect(done).toMatchObject({ status: 'done', total: 1200, processed: 1200, succeeded: 1200, failed: 0 });
    const exported = await sheetOf((await download(`${PATH}/export`, { token: admin, query: { title: 'io-many-', ascs: 'title' } })).rawPayload);
    expect(exported.length).toBe(1201);
    expect(exported[1200]![0]).toBe('io-many-1199');
  });
});

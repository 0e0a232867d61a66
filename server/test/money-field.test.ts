import { defineResource, type Page } from '@console/contract';
import { sql } from 'drizzle-orm';
import { bigint, pgTable, varchar } from 'drizzle-orm/pg-core';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AreaManifest, bind } from '../src/areas/index.js';
import { auditColumns, id, tenantColumn } from '../src/core/db/columns.js';
import { buildMount } from '../src/core/resource/mount/resourceMount.js';
import { seedDicts } from '../src/seed/steps.js';
import { describeResource } from './conformance/kit.js';
import { until } from './gateway-fixture.js';
import { addTestArea, BASIC, useServer } from './harness.js';
import type { ImportJob } from './importSheet.js';
import { grantCodes } from './io-resource.js';
import { multipart } from './multipart.js';

/**
 * The engine's `money` field (docs/resource-engine.md, "Field types"): an integer of minor units on the wire and in
 * the table (bigint), read in the row's currency (a dictionary-coded field the definition names) wherever people read
 * or type it: the export writes major units as text, an import reads them back digit by digit. A test-only resource
 * over a table of its own (made by a data step, as conformance-fixtures.test.ts does), in CNY (2 digits) and JPY (0).
 */
const price = defineResource({
  code: 'kit_price',
  path: '/api/kit-fixture/price',
  title: { zh: '套件价格', en: 'Kit prices' },
  scope: 'tenant',
  nameField: 'item',
  menu: { parent: 'system', route: '/system/kit-price', name: { zh: '套件价格', en: 'Kit prices' }, sort: 93 },
  fields: {
    item: { type: 'string', label: { zh: '商品', en: 'Item' }, required: true, max: 40, unique: true, sortable: true },
    currency: { type: 'string', label: { zh: '币种', en: 'Currency' }, dict: 'kit_currency', max: 3, search: 'equal' },
    amount: { type: 'money', currency: 'currency', label: { zh: '价格', en: 'Price' }, required: true, sortable: true, search: 'equal' },
    // no currency field: always CNY, at most ¥1,000.00
    deposit: { type: 'money', label: { zh: '押金', en: 'Deposit' }, max: 100_000 },
  },
  io: { export: {}, import: {} },
});

const priceTable = pgTable('kit_fixture_price', {
  id: id('id').primaryKey(), tenantId: tenantColumn(), item: varchar('item', { length: 40 }).notNull(), currency: varchar('currency', { length: 3 }),
  amount: bigint('amount', { mode: 'number' }).notNull(), deposit: bigint('deposit', { mode: 'number' }), ...auditColumns(),
});

const fixtures: AreaManifest = {
  name: 'money-fixtures',
  resources: [bind(price, priceTable)],
  dataSteps: [{
    name: 'money-fixture-table',
    async run(tx) {
      await tx.execute(sql.raw(`create table kit_fixture_price (id bigint primary key, tenant_id varchar(12) not null, item varchar(40) not null,
        currency varchar(3), amount bigint not null, deposit bigint, create_user bigint, create_dept bigint,
        create_time timestamptz not null default now(), update_user bigint, update_time timestamptz not null default now(),
        status integer not null default 1, is_deleted smallint not null default 0)`));
      await tx.execute(sql.raw('create unique index uq_kit_fixture_price_item on kit_fixture_price (tenant_id, item) where is_deleted = 0'));
      await tx.execute(sql.raw("select app_enable_tenant_rls('kit_fixture_price'::regclass)"));
      await seedDicts(tx, [{ code: 'kit_currency', name: '币种', nameEn: 'Currency', items: [['CNY', '人民币', 'Chinese yuan'], ['JPY', '日元', 'Japanese yen']] }]);
    },
  }],
};
addTestArea(fixtures);

const h = useServer();
const PATH = price.path;
type Price = { id: string; item: string; currency: string | null; currencyName: string | null; amount: number; deposit: number | null };
let admin: string;

beforeAll(async () => {
  await grantCodes(h.server, ['kit_price_export', 'kit_price_import'], ['administrator']);
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
});

const submit = (body: Record<string, unknown>) => h.call<Price>('POST', `${PATH}/submit`, { token: admin, body, lang: 'en' });
const list = async (query: Record<string, string> = {}) => (await h.call<Page<Price>>('GET', `${PATH}/list`, { token: admin, query: { size: 100, ...query }, lang: 'en' }));
const pick = (rows: Price[]) => rows.map((r) => [r.item, r.currency, r.amount, r.deposit]);

async function sheetOf(body: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

async function xlsxOf(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sheet1');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const download = (call: string, query: Record<string, string> = {}) =>
  h.server.app.inject({ method: 'GET', url: `${PATH}/${call}`, query, headers: { authorization: BASIC, 'blade-auth': `bearer ${admin}`, 'accept-language': 'en' } });

/** Imports a sheet (English messages; `covering`: updates the rows of the same item) and waits for the job's end. */
async function importSheet(data: Buffer, filename: string, covering = false): Promise<ImportJob> {
  const { payload, contentType } = multipart([{ name: 'file', filename, type: 'application/octet-stream', data }]);
  const res = await h.server.app.inject({
    method: 'POST', url: `${PATH}/import`, query: covering ? { isCovering: '1' } : {}, payload,
    headers: { authorization: BASIC, 'blade-auth': `bearer ${admin}`, 'content-type': contentType, 'accept-language': 'en' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const jobId = (res.json() as { data: { id: string } }).data.id;
  let job: ImportJob | undefined;
  await until(async () => {
    job = (await h.call<ImportJob>('GET', `${PATH}/get-upload-progress`, { token: admin, query: { id: jobId } })).body.data;
    return job.status !== 'running';
  }, 20_000, 'the import');
  return job!;
}

describeResource(price, { harness: h });

describe('a money field on the wire: an integer of minor units', () => {
  it('submit takes an integer (or its digits from a form); list and detail answer it as an integer, sorted and filtered as minor units', async () => {
    const made = [
      await submit({ item: 'wire-cny', currency: 'CNY', amount: 1990, deposit: '500' }),
      await submit({ item: 'wire-jpy', currency: 'JPY', amount: '1990' }),
      await submit({ item: 'wire-none', amount: 0 }),
    ];
    for (const res of made) expect(res.status, res.body.msg).toBe(200);
    const detail = await h.call<Price>('GET', `${PATH}/detail`, { token: admin, query: { id: made[0]!.body.data.id } });
    expect(detail.body.data).toMatchObject({ item: 'wire-cny', currency: 'CNY', currencyName: '人民币', amount: 1990, deposit: 500 });
    expect(typeof detail.body.data.amount).toBe('number');
    const sorted = (await list({ item: 'wire-', ascs: 'amount,item' })).body.data.records;
    expect(pick(sorted)).toEqual([['wire-none', null, 0, null], ['wire-cny', 'CNY', 1990, 500], ['wire-jpy', 'JPY', 1990, null]]);
    expect(pick((await list({ item: 'wire-', descs: 'amount', ascs: 'item' })).body.data.records).map((r) => r[0])).toEqual(['wire-cny', 'wire-jpy', 'wire-none']);
    expect((await list({ item: 'wire-', amount_equal: '1990' })).body.data.records.map((r) => r.item).sort()).toEqual(['wire-cny', 'wire-jpy']);
    // a filter is minor units too: a decimal is refused, naming the field
    for (const bad of ['19.9', '1e3', '-1']) {
      const res = await list({ amount_equal: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.data, bad).toEqual({ amount_equal: 'Price must be an amount in minor units (a non-negative integer)' });
    }
  });

  it('refuses a decimal (19.5), an exponent (\'1e3\'), a sign (-1) and more than 2^53 - 1, naming the field, and writes nothing', async () => {
    const notMinor = 'Price must be an amount in minor units (a non-negative integer)';
    const cases: Array<[unknown, string]> = [
      [19.5, notMinor], ['19.5', notMinor], ['19.50', notMinor], ['1e3', notMinor], ['-1', notMinor], [true, notMinor],
      [-1, 'Price must be at least 0'], [2 ** 53, 'Price must be at most 9007199254740991'], ['9007199254740993', 'Price must be at most 9007199254740991'],
      [null, 'Price is required'], ['', 'Price is required'],
    ];
    const before = (await list()).body.data.total;
    for (const [amount, message] of cases) {
      const res = await submit({ item: 'bad-amount', currency: 'CNY', amount });
      expect(res.status, JSON.stringify(amount)).toBe(400);
      expect(res.body.data, JSON.stringify(amount)).toEqual({ amount: message });
    }
    // min/max are minor units: ¥1,000.00 is 100000
    expect((await submit({ item: 'bad-deposit', amount: 1, deposit: 100_001 })).body.data).toEqual({ deposit: 'Deposit must be at most 100000' });
    expect((await list()).body.data.total).toBe(before);
    const biggest = await submit({ item: 'max-amount', currency: 'JPY', amount: Number.MAX_SAFE_INTEGER });
    expect(biggest.status, biggest.body.msg).toBe(200);
    expect((await h.call<Price>('GET', `${PATH}/detail`, { token: admin, query: { id: biggest.body.data.id } })).body.data.amount).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('the API document answers it as an integer', async () => {
    const doc = (await h.server.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, { get: { responses: { 200: { content: { 'application/json': { schema: { properties: { data: { properties: Record<string, unknown> } } } } } } } } }>;
    };
    const answered = doc.paths[`${PATH}/detail`]!.get.responses[200].content['application/json'].schema.properties.data.properties;
    expect(answered.amount).toMatchObject({ type: 'integer' });
    expect(answered.deposit).toMatchObject({ type: 'integer' });
  });

  it('a definition whose money field names a currency field it does not answer is refused when the engine mounts it', () => {
    const wrong = (currency: string) => defineResource({ ...price, fields: { ...price.fields, amount: { ...price.fields.amount, currency } } });
    expect(() => buildMount(h.server.ctx, wrong('nope'), priceTable, {})).toThrow(/currency of the money field amount \(nope\)/);
    expect(() => buildMount(h.server.ctx, wrong('deposit'), priceTable, {})).toThrow(/must be an answered string field/);
    expect(() => buildMount(h.server.ctx, price, priceTable, {})).not.toThrow();
  });
});

describe('a money field in a sheet: major units of the row\'s currency', () => {
  beforeAll(async () => {
    for (const body of [
      { item: 'io-cny', currency: 'CNY', amount: 1990, deposit: 5 },
      { item: 'io-jpy', currency: 'JPY', amount: 1990, deposit: 100_000 },
      { item: 'io-dime', currency: 'CNY', amount: 30 },
    ]) expect((await submit(body)).status).toBe(200);
  });

  it('exports an amount as the text of its major units in the row\'s currency, and imports the export back unchanged', async () => {
    const res = await download('export', { item: 'io-', ascs: 'item' });
    expect(res.statusCode).toBe(200);
    const rows = await sheetOf(res.rawPayload);
    expect(rows).toEqual([
      ['Item', 'Currency', 'Price', 'Deposit'],
      ['io-cny', 'Chinese yuan', '19.90', '0.05'],
      ['io-dime', 'Chinese yuan', '0.30'],
      // yen have no minor unit: 1990 is ¥1990; the deposit has no currency field, so it is CNY
      ['io-jpy', 'Japanese yen', '1990', '1000.00'],
    ]);
    const job = await importSheet(res.rawPayload, 'prices.xlsx', true);
    expect(job, JSON.stringify(job.errors)).toMatchObject({ status: 'done', failed: 0, succeeded: 3 });
    expect(pick((await list({ item: 'io-', ascs: 'item' })).body.data.records)).toEqual([
      ['io-cny', 'CNY', 1990, 5], ['io-dime', 'CNY', 30, null], ['io-jpy', 'JPY', 1990, 100_000],
    ]);
  });

  it('imports numeric cells and texts in major units digit by digit (0.1 and 0.2 are 10 and 20, 19.9 is 1990; yen are whole)', async () => {
    const sheet = await xlsxOf([
      ['Item', 'Currency', 'Price', 'Deposit'],
      ['in-tenth', 'CNY', 0.1, '0.2'],
      ['in-nineteen', '人民币', 19.9, 1000],
      ['in-yen', 'Japanese yen', 100, null],
      ['in-yen-text', 'JPY', '1990', '19.9'],
      ['in-default', null, '7.5', null],
    ]);
    const job = await importSheet(sheet, 'in.xlsx');
    expect(job, JSON.stringify(job.errors)).toMatchObject({ status: 'done', failed: 0, succeeded: 5 });
    expect(pick((await list({ item: 'in-', ascs: 'item' })).body.data.records)).toEqual([
      ['in-default', null, 750, null], ['in-nineteen', 'CNY', 1990, 100_000], ['in-tenth', 'CNY', 10, 20], ['in-yen', 'JPY', 100, null], ['in-yen-text', 'JPY', 1990, 1990],
    ]);
  });

  it('refuses an amount that is not exact in the row\'s currency, on its row, and writes nothing', async () => {
    const before = (await list()).body.data.total;
    const sheet = await xlsxOf([
      ['Item', 'Currency', 'Price', 'Deposit'],
      ['bad-fen', 'CNY', 19.999, null],
      ['bad-yen', 'JPY', 19.5, null],
      ['bad-text', 'CNY', '19.999', null],
      ['bad-sign', 'CNY', '-1', null],
      ['bad-exp', 'CNY', '1e3', null],
      ['bad-float', 'CNY', 0.1 + 0.2, null],
      ['bad-deposit', 'JPY', '5', '0.001'],
      ['bad-currency', 'EUR', '5', null],
      ['good', 'CNY', '5', null],
    ]);
    const job = await importSheet(sheet, 'bad.xlsx');
    expect(job.status).toBe('failed');
    const cny = 'Price must be a non-negative amount in CNY with at most 2 decimals';
    expect(job.errors).toEqual([
      { row: 2, message: cny },
      { row: 3, message: 'Price must be a non-negative whole amount (JPY has no decimals)' },
      { row: 4, message: cny },
      { row: 5, message: cny },
      { row: 6, message: cny },
      { row: 7, message: cny },
      { row: 8, message: 'Deposit must be a non-negative amount in CNY with at most 2 decimals' },
      // the currency is reported, not the amount read in another
      { row: 9, message: 'Currency: no such value "EUR"' },
    ]);
    expect((await list()).body.data.total).toBe(before);
  });

  it('the template\'s example amount is major units of the example row\'s currency, as text', async () => {
    const rows = await sheetOf((await download('import-template')).rawPayload);
    expect(rows).toEqual([['Item', 'Currency', 'Price', 'Deposit'], ['Example item', 'Chinese yuan', '19.90', '19.90']]);
  });
});

import type { Page, R } from '@console/contract';
import type { ImportProgress } from '@console/contract/io';
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from './db-template.js';
import { BASIC, md5 } from './harness.js';
import { multipart } from './multipart.js';

/**
 * An import is all rows or none even when its server dies: the certificates of a large file are being written
 * when the server is killed (SIGKILL, no shutdown); after a restart on the same database nothing of the file is
 * there, and the same file imports whole. Runs the real server (src/main.ts) in a child process.
 */
const ROWS = 12_000;
const serverDir = fileURLToPath(new URL('..', import.meta.url));
let db: TestDb | undefined;
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await db?.dispose();
});

/** Starts the server on the test database; answers its address once it listens, and its log so far. */
function startServer(testDb: TestDb): Promise<{ url: string; child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'debug', PORT: '0', HOST: '127.0.0.1', DATA_DIR: testDb.dataDir,
      DATABASE_URL: testDb.databaseUrl ?? '', REDIS_URL: '', WEB_DIR: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${out.slice(-2000)}`)), 90_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /console ready at (http:\/\/[\d.:]+)/.exec(out);
      if (ready) {
        clearTimeout(timer);
        resolve({ url: ready[1]!, child, log: () => out });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${out.slice(-2000)}`)));
  });
}

async function call<T>(base: string, path: string, init: { method?: string; token?: string; json?: unknown; body?: Buffer; type?: string; headers?: Record<string, string> } = {}): Promise<R<T>> {
  const headers: Record<string, string> = { authorization: BASIC, ...init.headers };
  if (init.token) headers['blade-auth'] = `bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (init.type) headers['content-type'] = init.type;
  const res = await fetch(`${base}${path}`, { method: init.method ?? 'GET', headers, body: init.body ? new Uint8Array(init.body) : init.json === undefined ? undefined : JSON.stringify(init.json) });
  return (await res.json()) as R<T>;
}

async function signIn(base: string): Promise<string> {
  const query = new URLSearchParams({ grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('admin'), scope: 'all', type: 'account' });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${query}`, { method: 'POST', headers: { authorization: BASIC, 'tenant-id': '000000' } });
  return ((await res.json()) as { access_token: string }).access_token;
}

const certTotal = async (base: string, token: string) => (await call<Page<unknown>>(base, '/sc/ymy-ipc/back/get-cert-list?size=1', { token })).data.total;

async function importFile(base: string, token: string, file: Buffer): Promise<string> {
  const { payload, contentType } = multipart([{ name: 'file', filename: 'certs.csv', type: 'text/csv', data: file }]);
  const started = await call<{ id: string }>(base, '/sc/ymy-ipc/back/import-cert-list', { method: 'POST', token, body: payload, type: contentType });
  expect(started.code, started.msg).toBe(200);
  return started.data.id;
}

const progressOf = async (base: string, token: string, id: string) => (await call<ImportProgress>(base, `/sc/ymy-ipc/back/get-upload-progress?id=${id}`, { token })).data;

describe('an import whose server is killed while it writes', () => {
  it('leaves nothing half-written, and the same file imports whole after a restart', async () => {
    db = await createTestDb();
    let server = await startServer(db);
    let token = await signIn(server.url);
    const type = await call<{ id: string }>(server.url, '/api/ymy-product/type/submit', { method: 'POST', token, json: { typeName: '崩溃锁', typeCode: 'CRASH' } });
    const model = await call<{ id: string }>(server.url, '/api/ymy-product/model/submit', { method: 'POST', token, json: { typeId: type.data.id, modelName: 'X1', modelCode: 'X1' } });
    const product = await call(server.url, '/api/ymy-product/product/submit', {
      method: 'POST', token, json: { productName: 'X1', productCode: 'X1', typeId: type.data.id, modelId: model.data.id, cloudVendor: 1, cloudProductId: 'CRASHPROD' },
    });
    expect(product.code, product.msg).toBe(200);

    const lines = ['cloudVendor,cloudProductId,deviceName,deviceSecret'];
    for (let i = 1; i <= ROWS; i++) lines.push(`1,CRASHPROD,CR${String(i).padStart(8, '0')},${Buffer.from(`psk-${i}`).toString('base64')}`);
    const file = Buffer.from(lines.join('\n'));

    // kill it once the write has begun (its log says so: on PGlite, whose one connection the write holds,
    // no other request is answered meanwhile): rows are going in, the transaction is not committed
    await importFile(server.url, token, file);
    const until = Date.now() + 120_000;
    const writing = () => [...server.log().matchAll(/"written":(\d+),"msg":"import writing"/g)].map((m) => Number(m[1]));
    while (writing().length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGKILL');
    await exited;
    const written = writing();
    expect(written.length, 'the import was writing when the server was killed').toBeGreaterThan(0);
    expect(Math.max(...written), 'and had not written every row').toBeLessThan(ROWS);

    server = await startServer(db);
    token = await signIn(server.url);
    expect(await certTotal(server.url, token)).toBe(0);

    const again = await importFile(server.url, token, file);
    let done: ImportProgress;
    for (;;) {
      done = await progressOf(server.url, token, again);
      if (done.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(done).toMatchObject({ status: 'done', total: ROWS, succeeded: ROWS, failed: 0 });
    // a list's total may be an estimate on a large table: the first and the last row are there
    for (const name of ['CR00000001', `CR${String(ROWS).padStart(8, '0')}`]) {
      const found = await call<Page<{ deviceName: string }>>(server.url, `/sc/ymy-ipc/back/get-cert-list?deviceName=${name}`, { token });
      expect(found.data.records.map((r) => r.deviceName)).toEqual([name]);
    }
    const exitedAgain = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGTERM');
    await exitedAgain;
  }, 300_000);
});

import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { msg, type UploadedFile } from '@console/contract';
import { and, eq } from 'drizzle-orm';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant, schema } from '../src/core/db/index.js';
import { attach, oss } from '../src/areas/resource/tables.js';
import { BASIC, type Harness, useServer } from './harness.js';

/**
 * Issue 23 item 6: an object storage configuration is attacker input. It cannot point the server at its
 * own network (refused when saved, and again when connecting, whatever the name resolves to then), unless
 * the operator lists the address in OUTBOUND_ALLOW_HOSTS; an upstream failure answers a fixed message and
 * its detail goes to the error log only.
 */

const DEMO = '541742';
const OSS = '/api/blade-resource/oss';
const FIXED_EN = msg('storageUnavailable', 'en');
const FIXED_ZH = msg('storageUnavailable', 'zh');

/** An internal service: counts the connections it gets and answers with text that must never reach a tenant. */
interface Internal { server: HttpServer; port: number; connections: number; requests: number }
async function internalService(status = 500): Promise<Internal> {
  const s: Internal = { server: createHttpServer(), port: 0, connections: 0, requests: 0 };
  s.server.on('connection', () => s.connections++);
  s.server.on('request', (req, res) => {
    s.requests++;
    req.resume();
    req.on('end', () => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/xml');
      res.end('<?xml version="1.0"?><Error><Code>InternalSecretCode</Code><Message>redis at 10.9.8.7:6379 said NOAUTH</Message></Error>');
    });
  });
  await new Promise<void>((r) => s.server.listen(0, '127.0.0.1', r));
  s.port = (s.server.address() as { port: number }).port;
  return s;
}

function png(size: number): Buffer {
  const head = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]).subarray(0, size);
}

async function upload(h: Harness, token: string, file: Buffer, lang: 'zh' | 'en' = 'en') {
  const boundary = `----t${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
    file, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const raw = await h.server.app.inject({
    method: 'POST', url: `${OSS}/endpoint/put-file`, payload,
    headers: { authorization: BASIC, 'content-type': `multipart/form-data; boundary=${boundary}`, 'blade-auth': `bearer ${token}`, 'accept-language': lang },
  });
  return { status: raw.statusCode, raw: raw.body, body: raw.json() as { msg: string; data: UploadedFile } };
}

const keys = { bucketName: 'console', accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1' };

/** The error log rows of the tenant written since `since` (the log is written in batches: flushed first). */
async function errorLogSince(h: Harness, since: Date) {
  await h.server.ctx.logs.flush();
  const rows = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(schema.logError).where(eq(schema.logError.tenantId, DEMO)));
  return rows.filter((r) => r.createTime >= since);
}

/** Saves a configuration, enables it and points its endpoint (as stored) at `endpoint`, bypassing the save check. */
async function enabledConfigAt(h: Harness, token: string, code: string, endpoint: string): Promise<string> {
  const created = await h.call<{ id: string }>('POST', `${OSS}/submit`, { token, body: { ossCode: code, category: 2, endpoint: 'https://s3.example.com', ...keys } });
  expect(created.status).toBe(200);
  const id = created.body.data.id;
  expect((await h.call('POST', `${OSS}/enable`, { token, query: { id } })).status).toBe(200);
  // a row saved before the check existed, or a name that resolved elsewhere when it was saved
  await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.update(oss).set({ endpoint, updateTime: new Date() }).where(eq(oss.id, id)));
  return id;
}

describe('without an allow-list', () => {
  const h = useServer();
  let demo: string;
  let internal: Internal;

  beforeAll(async () => {
    internal = await internalService();
    demo = (await h.login(DEMO, 'admin', 'admin')).access_token;
  });
  afterAll(async () => {
    await new Promise((r) => internal?.server.close(r));
  });

  it('refuses to save an endpoint that is an internal address, naming the field in the user\'s language', async () => {
    const p = internal.port;
    const internalEndpoints = [
      `http://127.0.0.1:${p}`, `http://127.1.2.3:${p}`, `http://localhost:${p}`, `http://LOCALHOST.:${p}`, `http://app.localhost:${p}`,
      // odd spellings of 127.0.0.1: decimal, hex, octal, short forms
      `http://2130706433:${p}`, `http://0x7f.1:${p}`, `http://0177.0.0.1:${p}`, `http://0x7f000001:${p}`, `http://127.1:${p}`,
      `http://[::1]:${p}`, `http://[::ffff:127.0.0.1]:${p}`, `http://[::ffff:7f00:1]:${p}`, `http://[0:0:0:0:0:ffff:7f00:1]:${p}`,
      `http://0.0.0.0:${p}`, `http://0:${p}`, `http://[::]:${p}`,
      'http://10.0.0.5', 'https://172.16.3.4:9000', 'http://172.31.255.255', 'http://192.168.1.10:9000', 'http://[::ffff:192.168.1.10]',
      'http://169.254.169.254/latest/meta-data', 'http://[fd00:ec2::254]', 'http://metadata.google.internal', 'http://metadata.goog',
      'http://100.64.0.1', 'http://100.100.100.200', 'http://224.0.0.1', 'http://255.255.255.255', 'http://[ff02::1]',
      'http://[fe80::1]', 'http://[fc00::1]', 'http://[fd12:3456::1]', 'http://[64:ff9b::7f00:1]', 'http://[2002:7f00:1::]',
      'http://user:pw@127.0.0.1:9000', 'http://minio.internal:9000',
    ];
    const before = (await h.call<{ total: number }>('GET', `${OSS}/list`, { token: demo })).body.data.total;
    for (const [i, endpoint] of internalEndpoints.entries()) {
      const lang = i % 2 ? 'zh' : 'en';
      const res = await h.call('POST', `${OSS}/submit`, { token: demo, lang, body: { ossCode: `bad${i}`, category: 2, endpoint, ...keys } });
      expect(res.status, endpoint).toBe(400);
      const field = (res.body.data as Record<string, string> | null)?.endpoint;
      expect(field, endpoint).toBeTruthy();
      expect(field, endpoint).toMatch(lang === 'zh' ? /内部/ : /internal/);
      expect(res.body.msg, endpoint).toContain(field!);
    }
    expect((await h.call<{ total: number }>('GET', `${OSS}/list`, { token: demo })).body.data.total).toBe(before);
    // an existing configuration cannot be edited to one either
    const good = await h.call<{ id: string }>('POST', `${OSS}/submit`, { token: demo, body: { ossCode: 'public', category: 2, endpoint: 'https://s3.example.com:9000', ...keys } });
    expect(good.status).toBe(200);
    const edit = await h.call('POST', `${OSS}/submit`, { token: demo, lang: 'en', body: { id: good.body.data.id, endpoint: `http://[::ffff:127.0.0.1]:${p}` } });
    expect(edit.status).toBe(400);
    expect(edit.body.data).toHaveProperty('endpoint');
    const [stored] = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(oss).where(eq(oss.id, good.body.data.id)));
    expect(stored!.endpoint).toBe('https://s3.example.com:9000');
    // public addresses, and AWS S3 itself (no endpoint), are saved as before
    for (const endpoint of ['https://minio.example.com:9000', 'http://8.8.8.8:9000', 'https://[2606:4700::1111]', 'http://100.128.0.1', 'http://172.32.0.1']) {
      const ok = await h.call('POST', `${OSS}/submit`, { token: demo, body: { ossCode: `ok-${endpoint.length}-${endpoint.slice(-4)}`, category: 2, endpoint, ...keys } });
      expect(ok.status, endpoint).toBe(200);
    }
    expect((await h.call('POST', `${OSS}/submit`, { token: demo, body: { ossCode: 'aws', category: 2, ...keys } })).status).toBe(200);
  });

  it('refuses at connect time a saved name that resolves to an internal address: nothing reaches it, a fixed answer, the detail in the error log', async () => {
    const since = new Date(Date.now() - 1000);
    await enabledConfigAt(h, demo, 'by-name', `http://localhost:${internal.port}`);
    for (const lang of ['en', 'zh'] as const) {
      const refused = await upload(h, demo, png(600), lang);
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe(lang === 'en' ? FIXED_EN : FIXED_ZH);
    }
    expect(internal.connections).toBe(0);
    const [rows] = await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(attach).where(eq(attach.attachSize, 600)));
    expect(rows).toBeUndefined();
    const logged = (await errorLogSince(h, since)).map((r) => r.message ?? '').join('\n');
    expect(logged).toMatch(/localhost/);
    expect(logged).toMatch(/127\.0\.0\.1|::1/);
  });

  it('refuses at connect time a stored literal internal address, in any spelling', async () => {
    for (const [i, endpoint] of [`http://127.0.0.1:${internal.port}`, `http://2130706433:${internal.port}`, `http://[::ffff:127.0.0.1]:${internal.port}`].entries()) {
      await enabledConfigAt(h, demo, `literal${i}`, endpoint);
      const refused = await upload(h, demo, png(700));
      expect(refused.status, endpoint).toBe(400);
      expect(refused.body.msg, endpoint).toBe(FIXED_EN);
    }
    expect(internal.connections).toBe(0);
  });

  it('serves no file through a configuration that now points inside', async () => {
    // a file stored through a configuration that worked (here: the local disk) and whose row then names an internal S3 configuration
    const disk = await h.call<{ id: string }>('POST', `${OSS}/submit`, { token: demo, body: { ossCode: 'disk', category: 1 } });
    expect((await h.call('POST', `${OSS}/enable`, { token: demo, query: { id: disk.body.data.id } })).status).toBe(200);
    const up = await upload(h, demo, png(800));
    expect(up.status).toBe(200);
    const inside = await enabledConfigAt(h, demo, 'inside', `http://127.0.0.1:${internal.port}`);
    await inTenant(h.server.ctx.db, { tenantId: DEMO }, (tx) => tx.update(attach).set({ ossId: inside }).where(and(eq(attach.id, up.body.data.attachId))));
    const served = await h.server.app.inject({ method: 'GET', url: up.body.data.link, headers: { 'accept-language': 'en' } });
    expect(served.statusCode).toBe(400);
    expect(served.json().msg).toBe(FIXED_EN);
    expect(internal.connections).toBe(0);
  });
});

describe('with the operator\'s allow-list', () => {
  const h = useServer({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1, minio.internal' });
  let demo: string;
  let failing: Internal;
  let s3: { run(): Promise<{ port: number }>; close(): Promise<void> };
  let s3Dir = '';
  let s3Url = '';

  beforeAll(async () => {
    failing = await internalService(500);
    s3Dir = await mkdtemp(join(tmpdir(), 'console-s3-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'console' }] });
    s3Url = `http://127.0.0.1:${(await s3.run()).port}`;
    demo = (await h.login(DEMO, 'admin', 'admin')).access_token;
  }, 60_000);
  afterAll(async () => {
    await s3?.close();
    await new Promise((r) => failing?.server.close(r));
    await rm(s3Dir, { recursive: true, force: true });
  });

  it('stores in and serves from a local S3 the operator listed', async () => {
    const created = await h.call<{ id: string }>('POST', `${OSS}/submit`, { token: demo, body: { ossCode: 'local-s3', category: 2, endpoint: s3Url, ...keys } });
    expect(created.status).toBe(200);
    expect((await h.call('POST', `${OSS}/enable`, { token: demo, query: { id: created.body.data.id } })).status).toBe(200);
    const body = png(1500);
    const up = await upload(h, demo, body);
    expect(up.status).toBe(200);
    expect((await readdir(s3Dir, { recursive: true })).map(String).filter((p) => p.endsWith('._S3rver_object'))).toHaveLength(1);
    const served = await h.server.app.inject({ method: 'GET', url: up.body.data.link });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(body)).toBe(true);
    // a listed name is saved too; what is not listed stays refused
    expect((await h.call('POST', `${OSS}/submit`, { token: demo, body: { ossCode: 'named', category: 2, endpoint: 'http://minio.internal:9000', ...keys } })).status).toBe(200);
    for (const endpoint of [`http://[::1]:9000`, 'http://10.0.0.5:9000', 'http://other.internal']) {
      const refused = await h.call('POST', `${OSS}/submit`, { token: demo, lang: 'en', body: { ossCode: 'x', category: 2, endpoint, ...keys } });
      expect(refused.status, endpoint).toBe(400);
      expect(refused.body.data, endpoint).toHaveProperty('endpoint');
    }
  });

  it('answers an upstream failure with the fixed message and keeps its detail for the error log', async () => {
    const since = new Date(Date.now() - 1000);
    const created = await h.call<{ id: string }>('POST', `${OSS}/submit`, { token: demo, body: { ossCode: 'failing', category: 2, endpoint: `http://127.0.0.1:${failing.port}`, ...keys } });
    expect(created.status).toBe(200);
    expect((await h.call('POST', `${OSS}/enable`, { token: demo, query: { id: created.body.data.id } })).status).toBe(200);
    for (const lang of ['en', 'zh'] as const) {
      const refused = await upload(h, demo, png(900), lang);
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe(lang === 'en' ? FIXED_EN : FIXED_ZH);
      for (const leak of ['NOAUTH', '10.9.8.7', 'InternalSecretCode', '500', String(failing.port)]) expect(refused.raw).not.toContain(leak);
    }
    expect(failing.requests).toBeGreaterThan(0);
    const logged = (await errorLogSince(h, since)).map((r) => `${r.exceptionName} ${r.message}`).join('\n');
    expect(logged).toMatch(/InternalSecretCode/);
    expect(logged).toMatch(/NOAUTH/);
  });
});

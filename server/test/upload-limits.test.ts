import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UploadedFile } from '@console/contract';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/core/config.js';
import { BASIC, type Harness, useServer } from './harness.js';
import { attach } from '../src/areas/resource/tables.js';

const KB = 1024;
const MB = 1024 * 1024;
const PLATFORM = '000000';
const DEMO = '541742';

/** A file of `size` bytes that is sniffed as PNG. */
function png(size: number): Buffer {
  const head = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  return Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]).subarray(0, size);
}

function multipart(file: Buffer, filename: string) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(h: Harness, token: string, file: Buffer, lang?: 'zh' | 'en') {
  const body = multipart(file, 'upload.png');
  const headers: Record<string, string> = { authorization: BASIC, 'content-type': body.contentType, 'blade-auth': `bearer ${token}` };
  if (lang) headers['accept-language'] = lang;
  const raw = await h.server.app.inject({ method: 'POST', url: '/api/blade-resource/oss/endpoint/put-file', headers, payload: body.payload });
  return { status: raw.statusCode, headers: raw.headers, body: raw.json() as { code: number; success: boolean; msg: string; data: UploadedFile | null } };
}

/** Every path under DATA_DIR/files (finished files and any partial ones). */
async function filesOnDisk(h: Harness): Promise<string[]> {
  const root = join(h.server.ctx.config.dataDir, 'files');
  try {
    return (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
  } catch {
    return [];
  }
}

async function rowsOf(h: Harness, tenantId: string, userId?: string) {
  return h.server.ctx.db.select({ n: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(attach_size), 0)` }).from(attach)
    .where(and(eq(attach.tenantId, tenantId), eq(attach.isDeleted, 0), userId ? eq(attach.createUser, userId) : undefined))
    .then(([r]) => ({ n: r!.n, bytes: Number(r!.bytes) }));
}

describe('configuration', () => {
  it('defaults to a 2 GB quota per tenant and 30 files / 200 MB per user in 10 minutes; 0 means no quota', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'console-config-'));
    try {
      expect(loadConfig({ NODE_ENV: 'test' }, { dataDir: dir }).uploads).toEqual({
        tenantQuotaBytes: 2048 * MB, userFiles: 30, userBytes: 200 * MB, userWindowSeconds: 600,
      });
      const set = loadConfig({ NODE_ENV: 'test', TENANT_STORAGE_QUOTA_MB: '0', UPLOAD_RATE_FILES: '5', UPLOAD_RATE_MB: '8' }, { dataDir: dir });
      expect(set.uploads).toMatchObject({ tenantQuotaBytes: 0, userFiles: 5, userBytes: 8 * MB });
      expect(() => loadConfig({ TENANT_STORAGE_QUOTA_MB: '-1' }, { dataDir: dir })).toThrow(/TENANT_STORAGE_QUOTA_MB/);
      expect(() => loadConfig({ UPLOAD_RATE_FILES: '0' }, { dataDir: dir })).toThrow(/UPLOAD_RATE_FILES/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('tenant storage quota', () => {
  const h = useServer({ TENANT_STORAGE_QUOTA_MB: '1' });
  const tokens: Record<string, string> = {};
  const tokenOf = async (tenantId: string) => (tokens[tenantId] ??= (await h.login(tenantId, 'admin', 'admin')).access_token);

  it('has a covering index for the sum of a tenant\'s live attachments', async () => {
    const rows = await h.server.ctx.db.execute(sql`select indexdef from pg_indexes where indexname = 'ix_attach_tenant_size'`);
    expect(JSON.stringify(rows)).toContain('INCLUDE (attach_size) WHERE (is_deleted = 0)');
  });

  it('stores, registers and serves a normal upload under the quota', async () => {
    const before = await filesOnDisk(h);
    const res = await upload(h, await tokenOf(DEMO), png(100 * KB));
    expect(res.status).toBe(200);
    expect(res.body.data!.link).toMatch(/^\/files\/541742\/\d{8}\/[0-9a-f]{32}\.png\/[^/]+$/);
    expect((await filesOnDisk(h)).length).toBe(before.length + 1);
    const served = await h.server.app.inject({ method: 'GET', url: res.body.data!.link });
    expect(served.statusCode).toBe(200);
    expect(Number(served.headers['content-length'])).toBe(100 * KB);
    expect(await rowsOf(h, DEMO)).toEqual({ n: 1, bytes: 100 * KB });
  });

  it('refuses a file that does not fit, saying how much is used of how much, in zh and en, and keeps nothing', async () => {
    const token = await tokenOf(DEMO);
    const disk = await filesOnDisk(h);
    const rows = await rowsOf(h, DEMO);
    const tooBig = png(MB - rows.bytes + 1);
    const zh = await upload(h, token, tooBig);
    expect(zh.status).toBe(413);
    expect(zh.body).toEqual({ code: 413, success: false, data: null, msg: '租户存储空间不足: 已用 100 KB, 共 1 MB, 放不下这个文件; 请联系管理员' });
    const en = await upload(h, token, tooBig, 'en');
    expect(en.body.msg).toBe('Not enough storage for this file: the tenant uses 100 KB of 1 MB; contact your administrator');
    expect(await filesOnDisk(h)).toEqual(disk);
    expect(await rowsOf(h, DEMO)).toEqual(rows);
  });

  it('accepts a file that fills the quota exactly, then refuses even one byte more before reading it', async () => {
    const token = await tokenOf(DEMO);
    const rows = await rowsOf(h, DEMO);
    expect((await upload(h, token, png(MB - rows.bytes))).status).toBe(200);
    const disk = await filesOnDisk(h);
    const full = await upload(h, token, png(20));
    expect(full.status).toBe(413);
    expect(full.body.msg).toBe('租户存储空间不足: 已用 1 MB, 共 1 MB, 放不下这个文件; 请联系管理员');
    expect(await filesOnDisk(h)).toEqual(disk);
    expect(await rowsOf(h, DEMO)).toEqual({ n: rows.n + 1, bytes: MB });
  });

  it('does not count another tenant\'s files', async () => {
    const res = await upload(h, await tokenOf(PLATFORM), png(600 * KB));
    expect(res.status).toBe(200);
    expect(await rowsOf(h, PLATFORM)).toEqual({ n: 1, bytes: 600 * KB });
    expect((await rowsOf(h, DEMO)).bytes).toBe(MB);
  });

  it('lets parallel uploads together fill the quota but never pass it, and keeps nothing of the refused ones', async () => {
    const token = await tokenOf(PLATFORM);
    const room = MB - (await rowsOf(h, PLATFORM)).bytes; // 424 KB: two of 150 KB fit, three do not
    const disk = await filesOnDisk(h);
    const results = await Promise.all(Array.from({ length: 6 }, () => upload(h, token, png(150 * KB))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 413, 413, 413, 413]);
    expect(Math.floor(room / (150 * KB))).toBe(2);
    const after = await rowsOf(h, PLATFORM);
    expect(after).toEqual({ n: 3, bytes: 900 * KB });
    const now = await filesOnDisk(h);
    expect(now.length).toBe(disk.length + 2);
    expect(now.filter((f) => f.includes('.part-'))).toEqual([]);
    for (const r of results.filter((x) => x.status === 413)) expect(r.body.msg).toMatch(/^租户存储空间不足: 已用 \d+(\.\d+)? KB, 共 1 MB/);
  });
});

describe('uploads per user', () => {
  const h = useServer({ UPLOAD_RATE_FILES: '5', UPLOAD_RATE_MB: '8' });
  const signIn = async (account: string) => {
    const userId = await h.createUser(PLATFORM, account, 'pw-123456', ['user']);
    return { userId, token: (await h.login(PLATFORM, account, 'pw-123456')).access_token };
  };

  it('refuses the file past the budget with 429 and when to retry, in zh and en, keeping nothing; other users go on', async () => {
    const a = await signIn('uploader.a');
    for (let i = 0; i < 5; i++) expect((await upload(h, a.token, png(2 * KB))).status).toBe(200);
    const disk = await filesOnDisk(h);
    const zh = await upload(h, a.token, png(2 * KB));
    expect(zh.status).toBe(429);
    expect(zh.body).toMatchObject({ code: 429, success: false, data: null });
    const seconds = Number(/^上传过于频繁: 每 10 分钟最多 5 个文件、共 8 MB; 请 (\d+) 秒后再试$/.exec(zh.body.msg)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(600);
    expect(zh.headers['retry-after']).toBe(String(seconds));
    const en = await upload(h, a.token, png(2 * KB), 'en');
    expect(en.status).toBe(429);
    expect(en.body.msg).toMatch(/^Too many uploads: at most 5 files and 8 MB per 10 minutes; try again in \d+ seconds$/);
    expect(await filesOnDisk(h)).toEqual(disk);
    expect((await rowsOf(h, PLATFORM, a.userId)).n).toBe(5);

    const b = await signIn('uploader.b');
    expect((await upload(h, b.token, png(2 * KB))).status).toBe(200);
  });

  it('counts parallel uploads before reading them: no more than the budget gets through', async () => {
    const c = await signIn('uploader.c');
    const results = await Promise.all(Array.from({ length: 9 }, () => upload(h, c.token, png(KB))));
    expect(results.filter((r) => r.status === 200).length).toBe(5);
    expect(results.filter((r) => r.status === 429).length).toBe(4);
    expect((await rowsOf(h, PLATFORM, c.userId)).n).toBe(5);
  });

  it('counts bytes: refuses the file that would pass the user\'s byte budget and keeps nothing of it', async () => {
    const d = await signIn('uploader.d');
    expect((await upload(h, d.token, png(3 * MB))).status).toBe(200);
    expect((await upload(h, d.token, png(4 * MB))).status).toBe(200);
    const disk = await filesOnDisk(h);
    const over = await upload(h, d.token, png(2 * MB), 'en');
    expect(over.status).toBe(429);
    expect(over.body.msg).toMatch(/^Too many uploads: at most 5 files and 8 MB per 10 minutes; try again in \d+ seconds$/);
    expect((await upload(h, d.token, png(KB))).status).toBe(429);
    expect(await filesOnDisk(h)).toEqual(disk);
    expect(await rowsOf(h, PLATFORM, d.userId)).toEqual({ n: 2, bytes: 7 * MB });
  });
});

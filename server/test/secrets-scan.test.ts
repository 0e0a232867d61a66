import { createHash } from 'node:crypto';
import { CONSOLE_CLIENT, crudPaths, type Page } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant, schema } from '../src/core/db/index.js';
import { areaResources } from '../src/areas/index.js';
import { useServer } from './harness.js';

const h = useServer();
type Rec = Record<string, unknown> & { id: string };

/** Secrets the server holds: none may appear in any answer, in clear, hashed or sealed. */
const SMS_ACCESS = 'AKIDscan0access0key0SMS';
const SMS_SECRET = 'scan-sms-secret-7Hq2x';
const OSS_ACCESS = 'AKIDscan0access0key0OSS';
const OSS_SECRET = 'scan-oss-secret-9Kp1z';
let admin: string;
let demo: string;
const forbidden: string[] = [];

beforeAll(async () => {
  admin = (await h.login('000000', 'admin', 'admin')).access_token;
  demo = (await h.login('541742', 'admin', 'admin')).access_token;
  const sms = await h.call('POST', '/api/blade-resource/sms/submit', {
    token: admin, body: { smsCode: 'scan-sms', category: 1, templateId: 'SMS_1', signName: '智能锁', regionId: 'cn-hangzhou', accessKey: SMS_ACCESS, secretKey: SMS_SECRET },
  });
  expect(sms.status, JSON.stringify(sms.body)).toBe(200);
  const oss = await h.call('POST', '/api/blade-resource/oss/submit', {
    token: admin, body: { ossCode: 'scan-oss', category: 2, endpoint: 'https://s3.example.com', bucketName: 'b', accessKey: OSS_ACCESS, secretKey: OSS_SECRET },
  });
  expect(oss.status, JSON.stringify(oss.body)).toBe(200);
  const client = await h.call<Rec>('POST', '/api/blade-system/client/submit', {
    token: admin, body: { clientId: 'scan-client', authorizedGrantTypes: 'password,refresh_token', scope: 'all', accessTokenValidity: 3600, refreshTokenValidity: 7200 },
  });
  expect(client.status, JSON.stringify(client.body)).toBe(200);
  const issued = String(client.body.data.clientSecret ?? '');
  expect(issued.length).toBeGreaterThan(20); // shown once, in the create answer only
  forbidden.push(SMS_ACCESS, SMS_SECRET, OSS_ACCESS, OSS_SECRET, issued, CONSOLE_CLIENT.secret);
  // what the database stores for them: password hashes, client secret hashes, sealed keys
  await inTenant(h.server.ctx.db, { tenantId: '000000', allTenants: true }, async (tx) => {
    for (const u of await tx.select({ hash: schema.user.passwordHash }).from(schema.user)) forbidden.push(u.hash);
    for (const c of await tx.select({ hash: schema.client.clientSecret }).from(schema.client)) forbidden.push(c.hash);
  });
  forbidden.push(createHash('sha256').update(CONSOLE_CLIENT.secret).digest('hex'));
  const { sms: smsTable, oss: ossTable } = await import('../src/areas/resource/tables.js');
  await inTenant(h.server.ctx.db, { tenantId: '000000' }, async (tx) => {
    for (const t of [smsTable, ossTable]) {
      for (const r of await tx.select({ a: t.accessKey, s: t.secretKey }).from(t)) for (const v of [r.a, r.s]) if (v) forbidden.push(v);
    }
  });
});

function leaks(body: string): string[] {
  return [...forbidden.filter((s) => s && body.includes(s)).map((s) => `${s.slice(0, 12)}…`), ...(/\$argon2/.test(body) ? ['$argon2'] : [])];
}

describe('no answer holds a secret', () => {
  it('scans the list, detail and tree answers of every resource, for the platform and a tenant', async () => {
    let scanned = 0;
    for (const token of [admin, demo]) {
      for (const { def } of areaResources()) {
        const paths = [`${crudPaths(def).list}?size=50`, ...(def.tree ? [`${def.path}/tree`, `${def.path}/lazy-list`] : [])];
        for (const path of paths) {
          const res = await h.call<Page<Rec> | Rec[]>('GET', path, { token });
          if (res.status !== 200) continue;
          scanned++;
          expect(leaks(res.raw.body), `${path}`).toEqual([]);
          const data = res.body.data as Page<Rec> | Rec[];
          const records = Array.isArray(data) ? data : data.records;
          for (const r of records.slice(0, 5)) {
            const detail = await h.call('GET', crudPaths(def).detail, { token, query: { id: String(r.id) } });
            scanned++;
            expect(leaks(detail.raw.body), `${crudPaths(def).detail}?id=${r.id}`).toEqual([]);
          }
        }
      }
    }
    expect(scanned).toBeGreaterThan(60);
  });

  it('scans the shell\'s calls', async () => {
    const calls = [
      '/api/blade-auth/oauth/user-info', '/api/blade-system/user/info', '/api/blade-system/menu/routes', '/api/blade-system/menu/buttons',
      '/api/blade-system/menu/grant-tree', '/api/blade-system/tenant/select',
      '/api/blade-system/region/lazy-tree?parentCode=00',
    ];
    for (const path of calls) {
      const res = await h.call('GET', path, { token: admin });
      expect(res.status, path).toBe(200);
      expect(leaks(res.raw.body), path).toEqual([]);
    }
  });
});

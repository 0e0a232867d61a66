import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@console/contract';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { sms } from '../src/areas/resource/tables.js';
import { loadConfig } from '../src/core/config.js';
import { inTenant } from '../src/core/db/index.js';
import { unseal } from '../src/core/secrets.js';
import { createServer, type Server } from '../src/server.js';
import { createTestDb, databaseName, withDatabase } from './db-template.js';
import { BASIC, md5 } from './harness.js';

/**
 * The backup and restore of docs/deployment.md ("Backups", "Restore"), run as written there: `pg_dump --format=custom`
 * of a live instance's database, restored into a new database, a new instance started on it with the same
 * JWT_SECRET and ENCRYPTION_KEY. PostgreSQL only (DATABASE_URL), with bash and the PostgreSQL client programs on PATH.
 */
const base = process.env.DATABASE_URL;
const run = promisify(execFile);
const has = async (bin: string) => run(bin, ['--version']).then(() => true, () => false);
const tools = base ? (await Promise.all(['bash', 'pg_dump', 'pg_restore', 'psql', 'vacuumdb'].map(has))).every(Boolean) : false;

/** docs/deployment.md, "Backups": the command, with DATABASE_URL and DUMP set */
const BACKUP = 'pg_dump --format=custom --file="$DUMP" "$DATABASE_URL"';

/**
 * docs/deployment.md, "Restore": the commands, with DUMP, ADMIN_URL, RESTORED, DB_USER and RESTORED_URL set: one
 * transaction, stopped at the first error (pg_restore empties search_path: the functions behind the search columns
 * name the schema of what they call, migration 0037).
 */
const RESTORE = `
pg_restore --list "$DUMP" > /dev/null
psql "$ADMIN_URL" --no-psqlrc -v ON_ERROR_STOP=1 -c "CREATE DATABASE $RESTORED OWNER $DB_USER TEMPLATE template0"
pg_restore --exit-on-error --single-transaction --no-owner --role="$DB_USER" --dbname="$RESTORED_URL" "$DUMP"
vacuumdb --analyze-only --dbname="$RESTORED_URL"
`;

/** runs commands as bash does with `set -euo pipefail` (a failed step fails the whole, a pipe included) */
const sh = (script: string, env: Record<string, string>) => run('bash', ['-euo', 'pipefail', '-c', script], { env: { ...process.env, ...env } });

const PLATFORM = '000000';
const DEMO = '541742';

/** a stand-in for Aliyun's SMS API: records what reaches it and answers as the provider does */
async function smsProvider() {
  const seen: IncomingHttpHeaders[] = [];
  const server: HttpServer = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(req.headers);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ Code: 'OK', Message: 'OK', BizId: 'restored-biz', RequestId: 'r' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

function client(server: Server) {
  const call = async <T = unknown>(method: 'GET' | 'POST', url: string, token?: string, opts: { query?: Record<string, string>; body?: object } = {}) => {
    const res = await server.app.inject({
      method, url, query: opts.query, payload: opts.body,
      headers: { authorization: BASIC, ...(token ? { 'blade-auth': `bearer ${token}` } : {}) },
    });
    return { status: res.statusCode, body: res.json() as { data: T; msg: string } };
  };
  const login = async (tenantId: string, username: string, password: string) => {
    const res = await server.app.inject({
      method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC, 'tenant-id': tenantId },
      query: { grant_type: 'password', tenantId, username, password: md5(password), scope: 'all', type: 'account' },
    });
    return { status: res.statusCode, token: (res.json() as { access_token?: string }).access_token ?? '' };
  };
  return { call, login };
}

describe('backup and restore', () => {
  it.runIf(tools)('a pg_dump of a live database, restored into a new one, serves the same data, secrets and sign-ins', async () => {
    const source = await createTestDb();
    const restoredName = `${databaseName(base!)}_restored_${randomBytes(4).toString('hex')}`;
    const restoredUrl = withDatabase(base!, restoredName);
    const adminUrl = withDatabase(base!, 'postgres');
    const work = await mkdtemp(join(tmpdir(), 'console-backup-'));
    const dump = join(work, 'console.dump');
    const provider = await smsProvider();
    // the keys every instance of the deployment shares; the restored instance must be given the same
    const keys = { JWT_SECRET: randomBytes(36).toString('base64url'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };
    const env = (databaseUrl: string) => ({
      NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, SMS_ALIYUN_ENDPOINT: provider.url, ...keys,
    });
    const ACCESS = `ak-${randomBytes(8).toString('hex')}`;
    const SECRET = `sk-${randomBytes(12).toString('hex')}`;
    const title = `backup ${randomBytes(4).toString('hex')}`;
    let live: Server | undefined;
    let restored: Server | undefined;
    try {
      // the live instance: data made through the API
      live = await createServer(loadConfig(env(source.databaseUrl!), { dataDir: source.dataDir }));
      const before = client(live);
      const admin = (await before.login(PLATFORM, 'admin', 'admin')).token;
      const demo = (await before.login(DEMO, 'admin', 'admin')).token;
      const notice = await before.call<{ id: string }>('POST', '/api/blade-desk/notice/submit', admin, { body: { title, category: 1, releaseTime: '2026-01-01 00:00:00' } });
      expect(notice.status).toBe(200);
      const depts = await before.call<Array<{ id: string }>>('GET', '/api/blade-system/dept/list', admin);
      const roles = await before.call<Array<{ id: string; roleAlias: string }>>('GET', '/api/blade-system/role/list', admin);
      const user = await before.call<{ id: string }>('POST', '/api/blade-system/user/submit', admin, {
        body: { account: 'restored_user', name: 'Restored', realName: 'Restored', deptId: depts.body.data[0]!.id, roleId: roles.body.data.find((r) => r.roleAlias === 'user')!.id },
      });
      expect(user.status).toBe(200);
      const config = await before.call<{ id: string }>('POST', '/api/blade-resource/sms/submit', demo, {
        body: { smsCode: 'restored', category: 1, templateId: 'SMS_1', signName: 'Lock', accessKey: ACCESS, secretKey: SECRET },
      });
      expect(config.status).toBe(200);

      // the backup, taken while the instance runs (a consistent snapshot)
      await sh(BACKUP, { DUMP: dump, DATABASE_URL: source.databaseUrl! });
      await live.close();
      live = undefined;

      // the restore: the dump read back, a new database from template0 owned by the same user, the dump replayed
      // in one transaction, the planner's statistics
      await sh(RESTORE, { DUMP: dump, ADMIN_URL: adminUrl, RESTORED: restoredName, DB_USER: decodeURIComponent(new URL(base!).username) || 'postgres', RESTORED_URL: restoredUrl });

      // a new instance on the restored database, with the same keys
      restored = await createServer(loadConfig(env(restoredUrl), { dataDir: source.dataDir }));
      const after = client(restored);
      expect((await restored.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      // a token issued before the backup still holds (same JWT_SECRET, its session restored)
      const kept = await after.call<{ title: string }>('GET', '/api/blade-desk/notice/detail', admin, { query: { id: notice.body.data.id } });
      expect(kept.status).toBe(200);
      expect(kept.body.data.title).toBe(title);
      // sign-ins work: the platform administrator and the user made before the backup (its initial password)
      const signedIn = await after.login(PLATFORM, 'admin', 'admin');
      expect(signedIn.status).toBe(200);
      expect((await after.login(PLATFORM, 'restored_user', '123456')).status).toBe(200);
      const users = await after.call<Page<{ account: string }>>('GET', '/api/blade-system/user/list', signedIn.token, { query: { account: 'restored_user' } });
      expect(users.body.data.records.map((u) => u.account)).toEqual(['restored_user']);

      // the sealed SMS keys: answered masked, and they open with ENCRYPTION_KEY (sent to the provider)
      const demoAfter = (await after.login(DEMO, 'admin', 'admin')).token;
      const listed = await after.call<Page<{ smsCode: string; accessKey: string; secretKey: string }>>('GET', '/api/blade-resource/sms/list', demoAfter, { query: { smsCode: 'restored' } });
      expect(listed.body.data.records[0]).toMatchObject({ smsCode: 'restored', accessKey: '******', secretKey: '******' });
      const sent = await after.call('POST', '/api/blade-resource/sms/endpoint/send-message', demoAfter, { body: { code: 'restored', phones: ['13800138000'], params: { code: '1234' } } });
      expect(sent.status, sent.body.msg).toBe(200);
      expect(sent.body.data).toEqual({ success: true, code: 'OK', msg: 'restored-biz' });
      expect(String(provider.seen.at(-1)?.authorization)).toContain(ACCESS);
      const [row] = await inTenant(restored.ctx.db, { tenantId: DEMO }, (tx) => tx.select().from(sms).where(eq(sms.id, config.body.data.id)));
      const key = Buffer.from(keys.ENCRYPTION_KEY, 'hex');
      expect(unseal(key, row!.secretKey!)).toBe(SECRET);
      // without the same ENCRYPTION_KEY the restored secrets are lost
      expect(() => unseal(randomBytes(32), row!.secretKey!)).toThrow();
    } finally {
      await live?.close();
      await restored?.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${restoredName}" WITH (FORCE)`).finally(() => c.end());
      await source.dispose();
      await provider.close();
      await rm(work, { recursive: true, force: true });
    }
  }, 240_000);
});

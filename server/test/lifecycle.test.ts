import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/core/config.js';
import { openPglite } from '../src/core/db/index.js';
import { createServer } from '../src/server.js';
import { createTestDb } from './db-template.js';
import { BASIC, md5 } from './harness.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

describe('embedded database', () => {
  it.runIf(!onPostgres)('refuses to open a data folder another live process holds, and reopens it after close', async () => {
    const db = await createTestDb();
    try {
      const first = await openPglite(db.dataDir);
      const { writeFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      // pretend another live process (our parent) holds the folder
      writeFileSync(join(db.dataDir, 'console.lock'), String(process.ppid));
      await expect(openPglite(db.dataDir)).rejects.toThrow(/in use by process/);
      writeFileSync(join(db.dataDir, 'console.lock'), String(process.pid));
      await first.close();
      const again = await openPglite(db.dataDir);
      await again.close();
    } finally {
      await db.dispose();
    }
  });
});

describe('several instances on one PostgreSQL and Redis', () => {
  it.runIf(onPostgres && Boolean(process.env.REDIS_URL))('a sign-out on one instance stops the token on the other at once', async () => {
    const db = await createTestDb();
    const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.databaseUrl ?? '', REDIS_URL: process.env.REDIS_URL ?? '', JWT_SECRET: 'x'.repeat(40) };
    const a = await createServer(loadConfig(env, { dataDir: db.dataDir }));
    const b = await createServer(loadConfig(env, { dataDir: db.dataDir }));
    try {
      const login = await a.app.inject({
        method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC },
        query: { grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('admin') },
      });
      const token = login.json().access_token as string;
      const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
      expect((await b.app.inject({ method: 'GET', url: '/api/blade-system/menu/routes', headers })).statusCode).toBe(200);
      expect((await a.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/logout', headers })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 100)); // pub/sub delivery
      expect((await b.app.inject({ method: 'GET', url: '/api/blade-system/menu/routes', headers })).statusCode).toBe(401);
    } finally {
      await a.close();
      await b.close();
      await db.dispose();
    }
  });
});

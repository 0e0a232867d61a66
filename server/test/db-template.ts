import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * Test databases. PGlite (default): a migrated and seeded data folder is built once per run and copied
 * for each test file. PostgreSQL (DATABASE_URL set): the database named in DATABASE_URL is migrated and
 * seeded once and each test file gets a copy made with CREATE DATABASE … TEMPLATE.
 */
export interface TestDb {
  dataDir: string;
  databaseUrl?: string;
  dispose(): Promise<void>;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function createTestDb(): Promise<TestDb> {
  const dataDir = await mkdtemp(join(tmpdir(), 'console-test-'));
  const base = process.env.DATABASE_URL;
  if (base) {
    const name = `${databaseName(base)}_f${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await admin(base, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${databaseName(base)}"`));
    return {
      dataDir,
      databaseUrl: withDatabase(base, name),
      async dispose() {
        await admin(base, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const template = process.env.CONSOLE_TEST_TEMPLATE;
  if (!template) throw new Error('CONSOLE_TEST_TEMPLATE is not set: run the tests through vitest (global setup)');
  // coreutils' cp: node's recursive copy of the template's 2,000 files took ten times as long
  await promisify(execFile)('cp', ['-R', `${template}/.`, dataDir]);
  await rm(join(dataDir, 'console.lock'), { force: true });
  return { dataDir, dispose: () => rm(dataDir, { recursive: true, force: true }) };
}

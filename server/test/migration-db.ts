import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsFolder } from '../src/core/db/index.js';
import { databaseName, withDatabase } from './db-template.js';

/** the migrations before the one whose tag starts with `tag` (a copy of the folder, its journal cut there) */
export async function migrationsBefore(tag: string): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
  await cp(migrationsFolder(), dir, { recursive: true });
  const journal = JSON.parse(await readFile(join(dir, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag.startsWith(tag));
  if (at < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** a fresh database migrated by `migrate(folder)`: PGlite, or with DATABASE_URL a PostgreSQL database of its own */
export async function freshDatabase() {
  if (!process.env.DATABASE_URL) {
    const client = new PGlite({ extensions: { pg_trgm } });
    const db = drizzlePglite({ client });
    return {
      exec: (query: SQL) => db.execute(query),
      migrate: (folder: string) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const base = process.env.DATABASE_URL;
  const name = `${databaseName(base)}_mig_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: withDatabase(base, 'postgres') });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const client = new pg.Client({ connectionString: withDatabase(base, name) });
  await client.connect();
  const db = drizzlePg({ client });
  return {
    exec: (query: SQL) => db.execute(query),
    migrate: (folder: string) => migratePg(db, { migrationsFolder: folder }),
    async close() {
      await client.end();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

import { describe, expect, it } from 'vitest';
import { openPglite } from '../src/core/db/index.js';
import { createTestDb } from './db-template.js';

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

describe('the server process', () => {
  it('starts on an existing database, answers, and shuts down cleanly on SIGTERM, releasing the data folder', async () => {
    const { spawn } = await import('node:child_process');
    const { existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { createServer: netServer } = await import('node:net');
    const db = await createTestDb();
    const port = await new Promise<number>((resolve) => {
      const s = netServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const main = new URL('../src/main.ts', import.meta.url).pathname;
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, DATA_DIR: db.dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: db.databaseUrl ?? '', WEB_DIR: '' },
      stdio: 'ignore',
    });
    try {
      let up = false;
      for (let i = 0; i < 150 && !up; i++) {
        await new Promise((r) => setTimeout(r, 100));
        up = await fetch(`http://127.0.0.1:${port}/version.json`).then((r) => r.ok, () => false);
      }
      expect(up).toBe(true);
      expect(existsSync(join(db.dataDir, 'console.lock'))).toBe(!onPostgres);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(join(db.dataDir, 'console.lock'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await db.dispose();
    }
  });
});

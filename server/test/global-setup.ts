import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/core/config.js';
import { createServer } from '../src/server.js';

/** Builds the migrated and seeded database the test files copy (see db-template.ts). */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'console-template-'));
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }, { dataDir: dir });
  const server = await createServer(config);
  // the seeded tables analyzed once here, not by every test file's server (PGlite analyzes what never was)
  await server.ctx.upkeep.settled();
  await server.close();
  process.env.CONSOLE_TEST_TEMPLATE = dir;
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

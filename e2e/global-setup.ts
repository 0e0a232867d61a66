import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './api.js';

const root = new URL('..', import.meta.url).pathname;

async function waitUntilUp(url: string, child: ChildProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/version.json`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not answer within ${ms} ms`);
}

/** Starts the built product (server + console) once for all browser tests, on a fresh database, in switch mode. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'console-e2e-'));
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'server/dist/main.js')], {
    cwd: root,
    env: { ...process.env, SWITCH_MODE: 'true', REDIS_PREFIX: `console-e2e:${process.pid}:`, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: process.env.E2E_SERVER_LOG_LEVEL ?? 'warn', WEB_DIR: join(root, 'web/dist'),
      // the device gateway on a free port, and simulated devices allowed (tests play devices through it), whatever the database
      MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', DEVICE_SIMULATOR: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`,
      // the region alarm polls every 3 s instead of 3 minutes (tests/region-alarm.test.ts waits for it)
      REGION_ALARM_MS: '3000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilUp(baseUrl, child, 90_000);
  project.provide('baseUrl', baseUrl);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

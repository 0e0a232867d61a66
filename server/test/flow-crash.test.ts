import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/core/config.js';
import type { AuthUser } from '../src/core/context.js';
import { inTenant } from '../src/core/db/index.js';
import { flowInstance, flowTask } from '../src/areas/flow/tables.js';
import { FLOW_ENGINE } from '../src/areas/flow/index.js';
import { createServer, type Server } from '../src/server.js';
import { createTestDb, type TestDb } from './db-template.js';

/**
 * kill -9 in the middle of the workflow (issue 12): a child process moves leave requests without pause and is
 * killed with SIGKILL; a server started on the same database finds every instance at a step it completed (one
 * open task each, a saved state), and takes every one of them to its end.
 */
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const T = '541742';
let db: TestDb | undefined;
let server: Server | undefined;
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await server?.close();
  await db?.dispose();
});

const user = (userId: string, roleAliases: string[] = []): AuthUser => ({
  tenantId: T, userId, deptId: '', roleIds: [], roleAliases, account: userId, userName: userId, clientId: 'saber', sessionId: '',
});

describe('a workflow server killed while it works', () => {
  it('loses no instance and leaves none half-moved: all resume and end', async () => {
    db = await createTestDb();
    child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/flow/crash-child.ts'], {
      cwd: serverDir,
      env: { ...process.env, DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? '', REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    const steps = () => [...out.matchAll(/^step (\d+)/gm)].length;
    const until = Date.now() + 120_000;
    while (steps() < 40) {
      if (child.exitCode !== null || Date.now() > until) throw new Error(`the child did not get going: ${out.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    const before = steps();

    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.databaseUrl ?? '', REDIS_URL: '' }, { dataDir: db.dataDir });
    server = await createServer(config);
    const flow = server.ctx.services.get(FLOW_ENGINE);
    const read = <X>(fn: Parameters<typeof inTenant<X>>[2]) => inTenant(server!.ctx.db, { tenantId: T }, fn);
    const running = await read((tx) => tx.select().from(flowInstance).where(eq(flowInstance.status, 'running')));
    const all = await read((tx) => tx.select({ n: sql<number>`count(*)::int` }).from(flowInstance));
    expect(all[0]!.n, 'the instances the child reported started are there').toBeGreaterThanOrEqual([...out.matchAll(/ start /g)].length);
    expect(running.length).toBeGreaterThan(0);
    for (const i of running) {
      expect(i.state, `instance ${i.id} has its state`).not.toBeNull();
      const open = await read((tx) => tx.select().from(flowTask).where(and(eq(flowTask.instanceId, i.id), eq(flowTask.status, 'open'))));
      expect(open, `instance ${i.id} waits at exactly one task`).toHaveLength(1);
    }
    const applicant = user('9001');
    const approver = user('9002');
    const hr = user('9003', ['hr']);
    for (const i of running) {
      for (let guard = 0; guard < 6; guard++) {
        const [task] = await read((tx) => tx.select().from(flowTask).where(and(eq(flowTask.instanceId, i.id), eq(flowTask.status, 'open'))));
        if (!task) break;
        const who = task.taskDefinitionKey === 'adjust' ? applicant : task.taskDefinitionKey === 'hrApproval' ? hr : approver;
        if (!task.assignee) await flow.claim(who, task.id);
        await flow.complete(who, task.id, { pass: true });
      }
    }
    const left = await read((tx) => tx.select({ n: sql<number>`count(*)::int` }).from(flowInstance).where(eq(flowInstance.status, 'running')));
    expect(left[0]!.n, `after ${before} steps and a kill, every instance ended`).toBe(0);
  }, 240_000);
});

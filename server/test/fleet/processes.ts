import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer as netServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/core/db/index.js';
import { attachCalls, type Harness } from '../harness.js';

/**
 * Real server processes and a real proxy on loopback for the fleet's tests: instances started from the sources as
 * `npm start` runs them, HAProxy (Debian's) balancing over them with health checks on /readyz, and a harness whose
 * calls go through the proxy over HTTP, so the tests' fixtures drive the fleet as a browser would.
 */

export const hasHaproxy = () => spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = netServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

export interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  /** what the process wrote to stderr (its warnings and errors), for a failing test's message */
  stderr(): string;
  exited: Promise<number | null>;
}

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

/** starts `node --import tsx src/main.ts` on `port` and waits until it is ready */
export async function startInstance(name: string, port: number, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), WEB_DIR: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => { err = (err + c.toString()).slice(-20_000); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const instance: Instance = { name, port, child, stderr: () => err, exited };
  try {
    await waitFor(`instance ${name} ready`, 90_000, async () => {
      if (child.exitCode !== null) throw new Error(`instance ${name} exited with ${child.exitCode}: ${err}`);
      return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
    });
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return instance;
}

export interface Proxy {
  port: number;
  stop(): Promise<void>;
  /** the proxy's view of a backend: UP, DOWN, … (its stats socket) */
  state(server: string): Promise<string>;
}

/**
 * HAProxy in front of the instances: round robin, each backend checked on /readyz every 500 ms and taken out after
 * two failures, a request whose connection failed sent to another backend.
 */
export async function startHaproxy(port: number, backends: Array<{ name: string; port: number }>): Promise<Proxy> {
  const dir = mkdtempSync(join(tmpdir(), 'console-haproxy-'));
  const socket = join(dir, 'stats.sock');
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, `global
  maxconn 4000
  stats socket ${socket} mode 600 level admin

defaults
  mode http
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  retries 3
  option redispatch 1
  retry-on conn-failure
  option forwardfor

frontend console
  bind 127.0.0.1:${port}
  http-request set-header X-Request-Id %[uuid()] unless { req.hdr(x-request-id) -m found }
  default_backend instances

backend instances
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 500ms fall 2 rise 2
${backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`).join('\n')}
`);
  const check = spawnSync('haproxy', ['-c', '-f', cfg], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy -c: ${check.stdout}${check.stderr}`);
  const child = spawn('haproxy', ['-f', cfg, '-db'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor('haproxy listening', 10_000, async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok);
  return {
    port,
    async state(server) {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        const c = connect(socket, () => c.end('show servers state instances\n'));
        c.on('data', (d: Buffer) => { text += d.toString(); });
        c.on('end', () => resolve(text));
        c.on('error', reject);
      });
      const line = out.split('\n').find((l) => l.split(' ')[3] === server);
      // srv_op_state: 0 stopped, 1 starting, 2 running, 3 stopping
      return line ? (['DOWN', 'STARTING', 'UP', 'STOPPING'][Number(line.split(' ')[5])] ?? 'UNKNOWN') : 'UNKNOWN';
    },
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(3000)]);
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface InjectOptions {
  method: string;
  url: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  payload?: string | Buffer | object;
}

/** an answer shaped as `inject` answers, from a real HTTP exchange */
function asInjectResponse(status: number, headers: Headers, body: Buffer): LightMyRequestResponse {
  const text = body.toString('utf8');
  return {
    statusCode: status, body: text, payload: text, rawPayload: body, headers: Object.fromEntries(headers.entries()),
    json: () => JSON.parse(text) as unknown,
  } as unknown as LightMyRequestResponse;
}

/**
 * A harness whose server is the fleet behind `base`: `app.inject` is a real request through the proxy, so every
 * fixture written for one in-process server drives the fleet; `ctx` holds what fixtures read directly (the
 * database, the sealing key).
 */
export function proxyHarness(base: string, db: Db, encryptionKey: Buffer): Harness {
  const inject = async (o: InjectOptions) => {
    const url = new URL(o.url, base);
    for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    let body: string | Buffer | undefined;
    if (Buffer.isBuffer(o.payload) || typeof o.payload === 'string') body = o.payload;
    else if (o.payload !== undefined) {
      body = JSON.stringify(o.payload);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url, { method: o.method, headers, body: Buffer.isBuffer(body) ? new Uint8Array(body) : body });
    return asInjectResponse(res.status, res.headers, Buffer.from(await res.arrayBuffer()));
  };
  const h = { server: { app: { inject }, ctx: { db, config: { encryptionKey } } } } as unknown as Harness;
  attachCalls(h);
  return h;
}

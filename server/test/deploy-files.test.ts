import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { createServer as netServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/core/config.js';
import { IMPORT_MAX_BYTES } from '../src/core/resource/io/import.js';
import { UPLOAD_MAX_BYTES } from '../src/core/uploads.js';
import { createTestDb, type TestDb } from './db-template.js';

/**
 * What can be checked of the deployment files without a container registry (docs/deployment.md): the Dockerfile's
 * stages, user, health check and command, run here in the image's layout; the proxies' configurations, validated by
 * HAProxy and nginx themselves. The image itself is not built here.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const pkg = (path: string) => JSON.parse(read(path)) as { workspaces?: string[]; scripts?: Record<string, string>; dependencies?: Record<string, string>; engines?: { node?: string } };

interface Instruction { op: string; args: string }
interface Stage { from: string; name?: string; steps: Instruction[] }

/** the Dockerfile's instructions (continuation lines joined, comments dropped), by stage; `args` are the ARGs before the first FROM */
function dockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line)!;
    const step = { op: op!.toUpperCase(), args: rest!.trim() };
    if (step.op === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(step.args)!;
      stages.push({ from: from!, name, steps: [] });
    } else if (stages.length === 0) {
      if (step.op === 'ARG') {
        const [k, v] = step.args.split('=');
        args[k!] = v ?? '';
      }
    } else {
      stages.at(-1)!.steps.push(step);
    }
  }
  return { args, stages };
}

const docker = dockerfile(read('Dockerfile'));
const stage = (name: string) => docker.stages.find((s) => s.name === name)!;
const runtime = docker.stages.at(-1)!;
const ops = (s: Stage, op: string) => s.steps.filter((i) => i.op === op).map((i) => i.args);
/** `ENV A=1 B=2` lines of a stage, as one record */
const envOf = (s: Stage) => Object.fromEntries(ops(s, 'ENV').flatMap((a) => a.split(/\s+/).map((kv) => kv.split('=') as [string, string])));
/** the source paths of COPY lines that read the build context (not another stage) */
const contextSources = (s: Stage) => ops(s, 'COPY').filter((a) => !a.startsWith('--from')).flatMap((a) => a.split(/\s+/).slice(0, -1));

const healthcheck = JSON.parse(/CMD\s+(\[.*\])$/.exec(ops(runtime, 'HEALTHCHECK')[0]!)![1]!) as string[];
const command = JSON.parse(ops(runtime, 'CMD')[0]!) as string[];

/** the configuration an instance has with no setting but NODE_ENV=production */
function productionDefaults() {
  const dataDir = mkdtempSync(join(tmpdir(), 'console-deploy-config-'));
  try {
    return loadConfig({ NODE_ENV: 'production' }, { dataDir });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = netServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** runs the image's HEALTHCHECK command as Docker would, against PORT */
function probe(port: number): number | null {
  return spawnSync(healthcheck[0]!, healthcheck.slice(1), { env: { ...process.env, PORT: String(port) }, timeout: 10_000 }).status;
}

describe('Dockerfile', () => {
  it('builds on node:20-bookworm-slim with npm ci and npm run build, in stages', () => {
    expect(docker.args.NODE_IMAGE).toBe('node:20-bookworm-slim');
    expect(docker.stages.map((s) => s.from)).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}', '${NODE_IMAGE}']);
    expect(pkg('package.json').engines?.node).toMatch(/^>=20\./);
    expect(ops(stage('build'), 'RUN')).toEqual(['npm ci --no-audit --no-fund', 'npm run build']);
    expect(pkg('package.json').scripts?.build).toContain('npm run build -w server');
    // the runtime's modules: the server's production dependencies, nothing of web, tests or build tools
    expect(ops(stage('deps'), 'RUN')[0]).toMatch(/^npm ci --omit=dev --workspace=@console\/server /);
  });

  it('copies every workspace manifest before npm ci (the lock file names them all)', () => {
    for (const s of [stage('build'), stage('deps')]) {
      const sources = contextSources(s);
      for (const file of ['package.json', 'package-lock.json', ...pkg('package.json').workspaces!.map((w) => `${w}/package.json`)]) {
        expect(sources, `${s.name}: ${file}`).toContain(file);
      }
    }
  });

  it('copies only what exists and what .dockerignore lets into the build context', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    for (const p of ['.git', '**/node_modules', '**/dist', 'data', '**/secrets.json']) expect(ignored).toContain(p);
    for (const source of docker.stages.flatMap(contextSources)) {
      expect(existsSync(join(root, source)), source).toBe(true);
      expect(ignored.includes(source) || ignored.includes(source.split('/')[0]!), source).toBe(false);
    }
  });

  it('runs as the unprivileged user node, in production, with DATA_DIR on a volume and the default ports exposed', () => {
    const users = ops(runtime, 'USER');
    expect(users.at(-1)).toBe('node');
    expect(users.some((u) => u === 'root' || u === '0' || u.startsWith('0:'))).toBe(false);
    const env = envOf(runtime);
    expect(env.NODE_ENV).toBe('production');
    expect(ops(runtime, 'VOLUME')).toEqual([JSON.stringify([env.DATA_DIR])]);
    // the volume's folder belongs to node, so the server can write it
    expect(ops(runtime, 'RUN').join('\n')).toContain(`chown node:node ${env.DATA_DIR}`);
    const defaults = productionDefaults();
    expect(ops(runtime, 'EXPOSE')[0]!.split(/\s+/)).toEqual([String(defaults.port), String(defaults.mqtt.port)]);
    expect(env.PORT).toBe(String(defaults.port));
    expect(env.MQTT_PORT).toBe(String(defaults.mqtt.port));
  });

  it('checks its health with node (the slim image has no curl) on /healthz', () => {
    expect(healthcheck[0]).toBe('node');
    expect(healthcheck[2]).toContain("'/healthz'");
  });

  it('starts the bundle the build makes, as `npm run serve` does, with node as PID 1', () => {
    expect(command.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(command[2]).toMatch(/^exec node --max-old-space-size="\$\{SERVER_HEAP_MB:-512\}" server\/dist\/main\.js$/);
    expect(pkg('package.json').scripts?.serve).toBe('node --max-old-space-size=${SERVER_HEAP_MB:-512} server/dist/main.js');
    expect(read('server/build.mjs')).toContain("outfile: 'dist/main.js'");
    const copies = ops(runtime, 'COPY');
    for (const line of [
      '--from=deps /app/node_modules node_modules', 'server/package.json server/', 'server/drizzle server/drizzle',
      '--from=build /app/server/dist server/dist', '--from=build /app/web/dist web/dist',
    ]) expect(copies).toContain(line);
  });
});

/**
 * The image's runtime stage laid out in a temporary folder (WORKDIR /app): the server bundle built by
 * server/build.mjs, the migrations, server/package.json and node_modules; then the image's CMD run there and
 * probed with its HEALTHCHECK.
 */
describe('the image\'s command, run in the runtime stage\'s layout', () => {
  const app = mkdtempSync(join(tmpdir(), 'console-image-'));
  let db: TestDb;
  let port = 0;
  let child: ChildProcess | undefined;
  let exited: Promise<number | null>;
  let output = '';

  beforeAll(async () => {
    mkdirSync(join(app, 'server'));
    for (const f of ['build.mjs', 'package.json']) copyFileSync(join(root, 'server', f), join(app, 'server', f));
    symlinkSync(join(root, 'server/src'), join(app, 'server/src'));
    symlinkSync(join(root, 'server/drizzle'), join(app, 'server/drizzle'));
    symlinkSync(join(root, 'node_modules'), join(app, 'node_modules'));
    const built = spawnSync(process.execPath, ['build.mjs'], { cwd: join(app, 'server'), encoding: 'utf8', timeout: 120_000 });
    if (built.status !== 0) throw new Error(`server build failed: ${built.stderr}`);

    db = await createTestDb();
    port = await freePort();
    child = spawn(command[0]!, command.slice(1), {
      cwd: app,
      env: {
        PATH: process.env.PATH, ...envOf(runtime), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: db.dataDir,
        DATABASE_URL: db.databaseUrl ?? '', MQTT_PORT: 'off', LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d));
    child.stderr!.on('data', (d: Buffer) => (output += d));
    exited = new Promise((resolve) => child!.once('exit', (code) => resolve(code)));
    for (let i = 0; i < 120 && probe(port) !== 0; i++) await new Promise((r) => setTimeout(r, 500));
  }, 150_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await db?.dispose();
    rmSync(app, { recursive: true, force: true });
  });

  it('the bundle imports nothing at run time but Node\'s modules and the server\'s production dependencies', () => {
    const bundle = readFileSync(join(app, 'server/dist/main.js'), 'utf8');
    const statement = /(?:\bfrom\s*|\bimport\s*\(\s*|(?:\b|__)require(?:\.resolve)?\s*\(\s*|^import\s+)["']([^"'\s./][^"'\s]*)["']/gm;
    const specifiers = new Set([...bundle.matchAll(statement)].map((m) => m[1]!));
    const names = [...specifiers].map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
    const allowed = new Set([...Object.keys(pkg('server/package.json').dependencies!).filter((d) => !d.startsWith('@console/')), ...builtinModules]);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !n.startsWith('node:') && !allowed.has(n))).toEqual([]);
    // the data files the areas read beside their module
    for (const f of ['leave.bpmn20.xml', 'regions.tsv']) expect(existsSync(join(app, 'server/dist', f)), f).toBe(true);
  });

  it('starts, and the HEALTHCHECK passes while it runs', () => {
    expect(probe(port), output).toBe(0);
  });

  it('is ready (the proxies\' check) and answers the proxy\'s request id', async () => {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status, await ready.clone().text()).toBe(200);
    // HAProxy's uuid() and nginx's $request_id are kept as the request's id
    for (const id of [randomUUID(), randomUUID().replaceAll('-', '')]) {
      const res = await fetch(`http://127.0.0.1:${port}/version.json`, { headers: { 'x-request-id': id } });
      expect(res.headers.get('x-request-id')).toBe(id);
    }
  });

  it('stops with exit code 0 on SIGTERM (docker stop), after which the HEALTHCHECK fails', async () => {
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(probe(port)).toBe(1);
  }, 60_000);
});

const has = (bin: string) => existsSync(bin);
const HAPROXY = '/usr/sbin/haproxy';
const NGINX = '/usr/sbin/nginx';

describe('proxy configurations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'console-proxy-'));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const combined = join(dir, 'combined.pem');
  const haproxy = read('deploy/haproxy.cfg');
  const nginx = read('deploy/nginx.conf');
  const withOpenssl = spawnSync('openssl', ['version']).status === 0;

  beforeAll(() => {
    if (!withOpenssl) return;
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=console.test'], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(made.stderr);
    writeFileSync(combined, readFileSync(cert, 'utf8') + readFileSync(key, 'utf8'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.runIf(has(HAPROXY) && withOpenssl)('deploy/haproxy.cfg is valid (haproxy -c)', () => {
    const file = join(dir, 'haproxy.cfg');
    writeFileSync(file, haproxy.replaceAll('/etc/haproxy/certs/console.pem', combined).replaceAll('/etc/haproxy/certs/mqtt.pem', combined));
    const res = spawnSync(HAPROXY, ['-c', '-f', file], { encoding: 'utf8' });
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toContain('Configuration file is valid');
  });

  it.runIf(has(NGINX) && withOpenssl)('deploy/nginx.conf is valid (nginx -t)', async () => {
    // its own ports, logs, pid and temporary folders, so the check needs no privileges and no free port 80/443
    const [http, https] = [await freePort(), await freePort()];
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${join(dir, t)};`).join('\n');
    const text = nginx
      .replaceAll('/etc/nginx/tls/console.fullchain.pem', cert).replaceAll('/etc/nginx/tls/console.key.pem', key)
      .replaceAll('/var/log/nginx/', `${dir}/`).replace('/run/nginx.pid', join(dir, 'nginx.pid'))
      .replace(/^ *listen \[::\].*\n/gm, '').replace('listen 80;', `listen 127.0.0.1:${http};`).replace('listen 443 ssl http2;', `listen 127.0.0.1:${https} ssl http2;`)
      .replace(/^http \{$/m, `http {\n${temp}`);
    const file = join(dir, 'nginx.conf');
    writeFileSync(file, text);
    const res = spawnSync(NGINX, ['-t', '-c', file, '-p', `${dir}/`, '-e', join(dir, 'error.log')], { encoding: 'utf8' });
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stderr).toContain('test is successful');
  });

  it('send the instances what the server expects', () => {
    const defaults = productionDefaults();
    // HAProxy checks readiness; the instances listen on the default ports
    expect(haproxy).toMatch(/http-check send meth GET uri \/readyz /);
    expect(haproxy).toMatch(/http-check expect status 200/);
    expect([...haproxy.matchAll(/^ {4}server app\d \S+:(\d+)$/gm)].map((m) => Number(m[1]))).toEqual([
      defaults.port, defaults.port, defaults.port, defaults.mqtt.port, defaults.mqtt.port, defaults.mqtt.port,
    ]);
    expect([...nginx.matchAll(/^ {8}server \S+:(\d+) /gm)].map((m) => Number(m[1]))).toEqual([defaults.port, defaults.port, defaults.port]);
    // the client's address as the connection gives it, never a header the client sent (TRUST_PROXY=true trusts it)
    expect(haproxy).toContain('http-request set-header X-Forwarded-For %[src]');
    expect(haproxy).not.toMatch(/option forwardfor/);
    expect(nginx).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(nginx).not.toContain('$proxy_add_x_forwarded_for');
    expect(haproxy).toContain('http-request set-header X-Request-Id %[unique-id]');
    expect(nginx).toContain('proxy_set_header X-Request-Id $request_id;');
    // the largest upload passes, the per-address MQTT limit is the broker's
    const largest = Math.max(UPLOAD_MAX_BYTES.file, IMPORT_MAX_BYTES);
    expect(Number(/req\.hdr_val\(content-length\) gt (\d+)/.exec(haproxy)![1])).toBeGreaterThan(largest);
    expect(Number(/client_max_body_size (\d+)m;/.exec(nginx)![1]) * 1024 * 1024).toBeGreaterThan(largest);
    expect(Number(/sc0_conn_cur gt (\d+)/.exec(haproxy)![1])).toBe(defaults.mqtt.maxConnectionsPerAddress);
    // the health, readiness and metrics endpoints are not served to the public
    expect(haproxy).toContain('http-request deny deny_status 404 if { path /healthz /readyz /metrics }');
    for (const p of ['/healthz', '/readyz', '/metrics']) expect(nginx).toContain(`location = ${p} { return 404; }`);
  });
});

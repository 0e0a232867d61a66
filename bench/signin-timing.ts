/**
 * Do a wrong password for an existing account and any password for an unknown one answer alike, in message
 * and in time? (issue 7: accounts must not be told apart). bench/RESULTS.md section "Sign-in timing".
 *
 *   npm run bench:signin-timing -w bench -- --db=postgres|pglite [--rounds=200] [--skip-build]
 *
 * Starts the built server as a process of its own (PostgreSQL: a fresh database; PGlite: a fresh folder),
 * trusting X-Forwarded-For so that every attempt comes from an address of its own (no budget or lock gets
 * in the way), and alternates the two kinds of attempt, timing each from this process.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CONSOLE_CLIENT } from '@console/contract';
import { dbOption, intOption, queryOnce, withDatabase } from './data.js';
import { request } from './load.js';
import { freePort, stats } from './measure.js';
import { machine } from './report.js';
import { createHash } from 'node:crypto';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const { values: opt } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    rounds: { type: 'string', default: '200' },
    'skip-build': { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    results: { type: 'string', default: join(here, 'RESULTS.md') },
  },
});
const db = dbOption(opt.db);
const ROUNDS = intOption('rounds', opt.rounds, 10, 5000);
const BASIC = `Basic ${Buffer.from(`${CONSOLE_CLIENT.id}:${CONSOLE_CLIENT.secret}`).toString('base64')}`;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

if (!opt['skip-build']) execFileSync('npm', ['run', 'build', '-w', 'server'], { cwd: root, stdio: 'inherit' });

const dataDir = mkdtempSync(join(tmpdir(), 'console-signin-timing-'));
const pgName = `console_signin_timing_${process.pid}`;
const env: Record<string, string> = { DATA_DIR: dataDir, TRUST_PROXY: 'true', NODE_ENV: 'production', LOG_LEVEL: 'warn' };
if (db === 'postgres') {
  await queryOnce(opt['pg-url'], `create database ${pgName}`);
  env.DATABASE_URL = withDatabase(opt['pg-url'], pgName);
}
const port = await freePort();
const child = spawn(process.execPath, [join(root, 'server/dist/main.js')], {
  cwd: root, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore',
});
const target = { host: '127.0.0.1', port };
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

try {
  for (let i = 0; ; i++) {
    const up = await request(target, agent, 'GET', '/version.json', {}, 1000).catch(() => null);
    if (up?.status === 200) break;
    if (i > 600) throw new Error('the server did not start');
    await sleep(100);
  }
  let address = 0;
  const attempt = async (username: string): Promise<{ ms: number; text: string }> => {
    address++;
    const query = new URLSearchParams({ grant_type: 'password', tenantId: '541742', username, password: md5(`guess-${address}`) });
    const t0 = performance.now();
    const res = await request(target, agent, 'POST', `/api/blade-auth/oauth/token?${query}`, {
      authorization: BASIC, 'tenant-id': '541742', 'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
    }, 10_000);
    const ms = performance.now() - t0;
    const body = JSON.parse(res.body) as { error?: string; error_description?: string };
    return { ms, text: `${res.status} ${body.error} ${body.error_description}` };
  };
  // one existing account per round (a wrong password for the same account would soon ask for a captcha,
  // which is right but not what is compared here): guest sign-ups, each from an address of its own
  for (let i = 0; i < ROUNDS + 10; i++) {
    address++;
    const res = await request(target, agent, 'POST', '/api/blade-user/register-guest', {
      authorization: BASIC, 'content-type': 'application/json', 'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
    }, 10_000, JSON.stringify({ tenantId: '541742', account: `timing-${i}`, name: `timing ${i}`, password: md5('right-password') }));
    if (res.status !== 200) throw new Error(`register-guest answered ${res.status}: ${res.body}`);
  }
  for (let i = 0; i < 10; i++) await attempt(i % 2 ? `timing-${ROUNDS + i}` : `warmup-${i}`);
  const existing: number[] = [];
  const unknown: number[] = [];
  const texts = { existing: new Set<string>(), unknown: new Set<string>() };
  for (let i = 0; i < ROUNDS; i++) {
    const a = await attempt(`timing-${i}`);
    existing.push(a.ms);
    texts.existing.add(a.text);
    const b = await attempt(`nobody-${i}`);
    unknown.push(b.ms);
    texts.unknown.add(b.text);
  }
  const e = stats(existing);
  const u = stats(unknown);
  const same = [...texts.existing].join() === [...texts.unknown].join();
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const line = (name: string, s: typeof e, xs: number[]) => `| ${name} | ${ROUNDS} | ${s.median.toFixed(1)} | ${s.p95.toFixed(1)} | ${mean(xs).toFixed(1)} |`;
  const section = [
    `<!-- signin-timing:${db} -->`,
    `### Sign-in timing: ${db === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'}`,
    '',
    `${machine()}. Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on revision ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim()}. `
      + `A wrong password for an existing account of 541742 (a different one each round) vs an unknown account, alternating, one at a time, each from an address of its own; times in ms.`,
    '',
    '| attempt | n | p50 | p95 | mean |',
    '|---|---:|---:|---:|---:|',
    line('existing account, wrong password', e, existing),
    line('unknown account', u, unknown),
    '',
    `Answers: existing ${[...texts.existing].map((t) => `\`${t}\``).join(', ')}; unknown ${[...texts.unknown].map((t) => `\`${t}\``).join(', ')} — ${same ? 'identical' : 'DIFFERENT'}. `
      + `Median difference ${(u.median - e.median).toFixed(1)} ms (${((u.median - e.median) / e.median * 100).toFixed(1)}%).`,
    `<!-- /signin-timing:${db} -->`,
  ].join('\n');
  console.log(section);
  const file = readFileSync(opt.results, 'utf8');
  const marker = new RegExp(`<!-- signin-timing:${db} -->[\\s\\S]*?<!-- /signin-timing:${db} -->`);
  writeFileSync(opt.results, marker.test(file) ? file.replace(marker, section) : `${file.trimEnd()}\n\n${section}\n`);
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  agent.destroy();
  rmSync(dataDir, { recursive: true, force: true });
  if (db === 'postgres') await queryOnce(opt['pg-url'], `drop database if exists ${pgName} with (force)`);
}

/**
 * What every measure of `npm run bench:ceilings` shares: paired rounds, medians, the built server in a process of its
 * own, and its CPU profile by self time.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../measure.js';

export const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));
export const repoRoot = dirname(benchDir);
export const RESULTS = join(benchDir, 'RESULTS.md');

export const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU time (user + system, ms) a process has used so far, from /proc; 0 once it is gone */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // after the command's closing parenthesis: state is field 3, utime 14, stime 15 (1-based, proc(5))
    return (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS);
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = 100;

/** `concurrency` callers of `call` for `seconds`: completed calls per second (a failed call stops the run) */
export async function rate(call: () => Promise<void>, seconds: number, concurrency: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      await call();
      done += 1;
    }
  }));
  return done / ((performance.now() - started) / 1000);
}

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
export interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** the profile's functions by self time, heaviest first: `share` of all busy samples, where */
export function heaviest(profile: CpuProfile, top: number): Array<{ share: number; where: string }> {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  // the process waiting (the rounds of the ceiling, the pauses) is no work
  const busy = profile.samples.filter((id) => byNode.get(id)!.callFrame.functionName !== '(idle)');
  for (const id of busy) {
    const f = byNode.get(id)!.callFrame;
    const file = f.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/server\/dist\//, 'dist/').replace(/^file:\/\//, '');
    const key = `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const total = busy.length;
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([where, n]) => ({ share: n / total, where }));
}

/** the heaviest functions of the one profile in `dir`, as lines to print */
export function profileReport(dir: string, top = 30): string {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('the server wrote no CPU profile');
  const rows = heaviest(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, top);
  return rows.map((r) => `${(r.share * 100).toFixed(1).padStart(5)} %  ${r.where}`).join('\n');
}

/** `npm run build -w server`, one build at a time on this machine (several benches may build at once) */
export function buildServer(): void {
  execFileSync('flock', ['/tmp/console-server-build.lock', 'npm', 'run', 'build', '-w', 'server'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
}

export interface BuiltServer { port: number; child: ChildProcess; stop: () => Promise<void> }

/**
 * `server/dist/main.js` in a process of its own (built first unless `skipBuild` and it exists), as the product runs
 * it (`--max-old-space-size=512`, production), answering on a free port. `env` adds to or overrides the defaults
 * (no Redis, no broker). `profileDir`: write a CPU profile there on exit.
 */
export async function startBuiltServer(o: { databaseUrl: string; dataDir: string; skipBuild: boolean; profileDir?: string; env?: Record<string, string> }): Promise<BuiltServer> {
  const mainJs = join(repoRoot, 'server', 'dist', 'main.js');
  if (!o.skipBuild || !existsSync(mainJs)) {
    log('building the server (npm run build -w server)');
    buildServer();
  }
  const port = await freePort();
  const profiling = o.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${o.profileDir}`] : [];
  const child = spawn(process.execPath, ['--max-old-space-size=512', ...profiling, mainJs], {
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: o.databaseUrl, DATA_DIR: o.dataDir, REDIS_URL: '',
      NODE_ENV: 'production', LOG_LEVEL: 'warn', MQTT_PORT: 'off', ...o.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  // a start on a busy machine, or on a large embedded database, takes its time
  for (let i = 0; i < 1800; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/version.json`).then((r) => r.ok, () => false);
    if (ok) return { port, child, stop };
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before answering`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // not SIGKILL: an embedded database killed mid-start recovers at its next start, for minutes on a large one
  await stop();
  throw new Error('the server did not answer within 180 s');
}

/** a results table row: the measure, both medians, their ratio (console ÷ ceiling, or the reverse for times) and the rounds */
export function ratioRow(measure: string, consoleValues: number[], ceilingValues: number[], unit: 'rate' | 'time', digits = 0): string {
  const a = median(consoleValues);
  const s = median(ceilingValues);
  const ratio = a / s;
  const f = (x: number) => x.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return `| ${measure} | ${f(a)} | ${f(s)} | ${unit === 'rate' ? ratio.toFixed(2) : `×${ratio.toFixed(2)}`} | ${consoleValues.map(f).join(', ')} / ${ceilingValues.map(f).join(', ')} |`;
}

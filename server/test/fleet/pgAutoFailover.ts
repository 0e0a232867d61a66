import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, chownSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statfsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A pg_auto_failover formation on this machine, for tests: a monitor, a primary and its standby on free loopback
 * ports, in a temporary folder. PostgreSQL refuses to run as root, so every pg_autoctl runs as `postgres` through
 * runuser; each service's processes keep the working folder they were started in, which is how they are found
 * again to be killed (PostgreSQL's backends each start a session of their own: no process group holds them all).
 */

const PG_CTL = process.env.PG_AUTOCTL_PGCTL ?? '/usr/lib/postgresql/15/bin/pg_ctl';

export interface FormationNode {
  name: string;
  port: number;
  /** the folder the node's processes run in; its data directory is `pgdata` inside */
  dir: string;
}

export interface NodeState {
  name: string;
  port: number;
  current: string;
  assigned: string;
}

export interface Formation {
  nodes: FormationNode[];
  /** the libpq multi-host URL of a database, asking for the node that takes writes */
  url(database: string): string;
  /** a URL to one node */
  nodeUrl(node: FormationNode, database: string): string;
  state(): Promise<NodeState[]>;
  /** waits until a node other than `not` is the writable primary (primary or wait_primary, as assigned) */
  waitForPrimary(opts?: { not?: string; timeoutMs?: number }): Promise<FormationNode>;
  /** kill -9 of a node's pg_autoctl, its postmaster and every backend: the machine is gone */
  kill(node: FormationNode): void;
  /** the end of each service's log, for a failure's report */
  logs(lines?: number): string;
  dispose(): Promise<void>;
}

/** Whether this process can run a formation: pg_autoctl installed, and root to run it as postgres. */
export function canRunFormation(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('sh', ['-c', 'command -v pg_autoctl && command -v runuser && id -u postgres'], { stdio: 'ignore' });
    return existsSync(PG_CTL);
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A folder in memory when the machine has room there: pg_basebackup and pg_autoctl sync what they write, which takes
 * seconds on a shared disk (a container's /dev/shm is often 64 MB: too small).
 */
function fastTmp(): string {
  try {
    const fs = statfsSync('/dev/shm');
    if (fs.bavail * fs.bsize > 2 ** 30) return '/dev/shm';
  } catch {
    // no /dev/shm
  }
  return tmpdir();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** the pids of the processes whose working folder is `dir` or inside it */
function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function signal(pids: number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // gone meanwhile
    }
  }
}

/** kill -9 of everything running in `dir`, until nothing is (a postmaster forks no more once it is dead) */
function killAllIn(dir: string, groups: number[]): void {
  signal(groups.map((g) => -g), 'SIGKILL');
  for (let i = 0; i < 50; i++) {
    const left = processesIn(dir);
    if (left.length === 0) return;
    signal(left, 'SIGKILL');
    execFileSync('sleep', ['0.05']);
  }
}

/**
 * What a PostgreSQL killed with -9 leaves outside its data directory: its socket and lock file in the shared
 * socket folder, and its small System V shared memory segment. Read from its postmaster.pid (pid, data directory,
 * start, port, socket folder, listen address, shared memory key and id, status).
 */
function cleanUpAfter(pgdata: string): void {
  const pidFile = join(pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const [, , , port, socketDir, , shm] = readFileSync(pidFile, 'utf8').split('\n');
  if (port && socketDir) {
    const socket = join(socketDir, `.s.PGSQL.${port}`);
    if (existsSync(`${socket}.lock`) && readFileSync(`${socket}.lock`, 'utf8').split('\n')[1] === pgdata) {
      rmSync(`${socket}.lock`, { force: true });
      rmSync(socket, { force: true });
    }
  }
  const [key, id] = shm?.trim().split(/\s+/) ?? [];
  if (!key || !id) return;
  // /proc/sysvipc/shm: key shmid perms size cpid lpid nattch …; the key in decimal there
  const segment = readFileSync('/proc/sysvipc/shm', 'utf8').split('\n').map((l) => l.trim().split(/\s+/))
    .find((f) => f[1] === id && f[0] === String(Number(key)));
  if (segment && segment[6] === '0') execFileSync('ipcrm', ['-m', id], { stdio: 'ignore' });
}

/**
 * Creates and starts a formation. Unless `defaultTimeouts`, shortens the monitor's health checks so that a failover
 * takes seconds rather than about a minute; on one machine no network partition can make two primaries of that.
 */
export async function startFormation(opts: { readyTimeoutMs?: number; defaultTimeouts?: boolean } = {}): Promise<Formation> {
  const root = await mkdtemp(join(fastTmp(), 'pgaf-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(root, uid, gid);
  const children: ChildProcess[] = [];
  const [monitorPort, ...ports] = await Promise.all([freePort(), freePort(), freePort()]);
  const monitor = { name: 'monitor', port: monitorPort!, dir: join(root, 'monitor') };
  const nodes: FormationNode[] = ports.map((port, i) => ({ name: `node${i + 1}`, port, dir: join(root, `node${i + 1}`) }));
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${monitor.port}/pg_auto_failover?sslmode=disable`;
  const env = [`XDG_CONFIG_HOME=${join(root, 'config')}`, `XDG_DATA_HOME=${join(root, 'share')}`, `XDG_RUNTIME_DIR=${join(root, 'run')}`];
  let disposed = false;

  const autoctl = (args: string[]) => ['-u', 'postgres', '--', 'env', ...env, 'pg_autoctl', ...args];
  /**
   * initdb here rather than by pg_autoctl (which takes a data directory that holds a cluster), for a throwaway
   * cluster: its dynamic shared memory in the data directory, where a killed PostgreSQL's segments go with the
   * folder instead of staying in /dev/shm; no fsync (a killed process loses nothing the kernel has), nor any pacing
   * of checkpoints (the standby's base backup waits for one)
   */
  const initdb = (service: FormationNode) => {
    mkdirSync(service.dir);
    chownSync(service.dir, uid, gid);
    const pgdata = join(service.dir, 'pgdata');
    execFileSync('runuser', ['-u', 'postgres', '--', join(dirname(PG_CTL), 'initdb'), '--pgdata', pgdata, '--auth=trust', '--no-sync', '--no-instructions'], { cwd: service.dir, stdio: 'ignore' });
    appendFileSync(join(pgdata, 'postgresql.conf'), "\ndynamic_shared_memory_type = 'mmap'\nfsync = off\ncheckpoint_completion_target = 0\n");
  };
  const run = (service: FormationNode, args: string[]) => {
    const log = openSync(join(root, `${service.name}.log`), 'a');
    const child = spawn('runuser', autoctl(args), { cwd: service.dir, detached: true, stdio: ['ignore', log, log] });
    closeSync(log);
    child.on('error', () => undefined);
    children.push(child);
  };
  const groups = () => children.map((c) => c.pid).filter((pid): pid is number => pid !== undefined);
  const services = () => [monitor, ...nodes].map((n) => join(n.dir, 'pgdata'));
  const killAll = () => {
    killAllIn(root, groups());
    for (const pgdata of services()) cleanUpAfter(pgdata);
    rmSync(root, { recursive: true, force: true });
  };
  // a test stopped hard (its worker killed) must not leave PostgreSQL servers behind
  process.once('exit', killAll);

  const common = ['--auth', 'trust', '--no-ssl', '--pgctl', PG_CTL, '--hostname', '127.0.0.1', '--run'];
  /** runs the statements one by one (ALTER SYSTEM cannot share a transaction); the last one's rows */
  const query = async <T extends pg.QueryResultRow>(port: number, database: string, ...statements: string[]): Promise<T[]> => {
    const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database, connectionTimeoutMillis: 2000 });
    c.on('error', () => undefined);
    await c.connect();
    try {
      let rows: T[] = [];
      for (const text of statements) rows = (await c.query<T>(text)).rows;
      return rows;
    } finally {
      await c.end().catch(() => undefined);
    }
  };

  const state = async (): Promise<NodeState[]> => {
    const { stdout } = await promisify(execFile)('runuser', autoctl(['show', 'state', '--pgdata', join(monitor.dir, 'pgdata'), '--json']), { encoding: 'utf8', timeout: 10_000 });
    const rows = JSON.parse(stdout) as Array<{ nodename: string; nodeport: number; current_group_state: string; assigned_group_state: string }>;
    return rows.map((r) => ({ name: r.nodename, port: r.nodeport, current: r.current_group_state, assigned: r.assigned_group_state }));
  };

  const until = async <T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const got = await probe().catch(() => undefined);
      if (got !== undefined) return got;
      if (Date.now() > end) throw new Error(`pg_auto_failover: ${what} not within ${timeoutMs} ms\n${logs(20)}`);
      await sleep(250);
    }
  };

  const logs = (lines = 30) => ['monitor', ...nodes.map((n) => n.name)].map((name) => {
    const file = join(root, `${name}.log`);
    const text = existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no log)';
    return `--- ${name}\n${text}`;
  }).join('\n');

  const writable = (s: NodeState) => (s.current === 'primary' || s.current === 'wait_primary') && s.assigned === s.current;

  const formation: Formation = {
    nodes,
    url: (database) => `postgres://postgres@${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}/${database}?target_session_attrs=read-write`,
    nodeUrl: (node, database) => `postgres://postgres@127.0.0.1:${node.port}/${database}`,
    state,
    async waitForPrimary({ not, timeoutMs = 60_000 } = {}) {
      return until(`a primary${not ? ` other than ${not}` : ''}`, timeoutMs, async () => {
        const primary = (await state()).find((s) => s.name !== not && writable(s));
        return primary && nodes.find((n) => n.name === primary.name);
      });
    },
    kill(node) {
      const group = children.find((c) => c.spawnargs.includes(join(node.dir, 'pgdata')))?.pid;
      killAllIn(node.dir, group === undefined ? [] : [group]);
    },
    logs,
    async dispose() {
      if (disposed) return;
      disposed = true;
      // nothing in the formation is kept: killed at once rather than shut down (pg_autoctl's takes seconds)
      killAll();
      process.removeListener('exit', killAll);
    },
  };

  const readyTimeoutMs = opts.readyTimeoutMs ?? 60_000;
  try {
    initdb(monitor);
    run(monitor, ['create', 'monitor', '--pgdata', join(monitor.dir, 'pgdata'), '--pgport', String(monitor.port), ...common]);
    await until('the monitor', readyTimeoutMs, async () => {
      const [row] = await query<{ ready: boolean }>(monitor.port, 'pg_auto_failover', "select count(*) > 0 as ready from pg_extension where extname = 'pgautofailover'");
      return row?.ready ? true : undefined;
    });
    if (!opts.defaultTimeouts) await query(monitor.port, 'pg_auto_failover',
      "alter system set pgautofailover.health_check_period = '1s'",
      "alter system set pgautofailover.health_check_timeout = '1s'",
      'alter system set pgautofailover.health_check_max_retries = 1',
      "alter system set pgautofailover.health_check_retry_delay = '500ms'",
      "alter system set pgautofailover.node_considered_unhealthy_timeout = '2s'",
      "alter system set pgautofailover.primary_demote_timeout = '4s'",
      'select pg_reload_conf()',
    );
    // node1 registers first and becomes the primary with its cluster; node2 is made its standby by a base backup
    // (which copies the configuration)
    const [first, second] = nodes as [FormationNode, FormationNode];
    const create = (node: FormationNode) => run(node, ['create', 'postgres', '--pgdata', join(node.dir, 'pgdata'), '--pgport', String(node.port), '--name', node.name, '--monitor', monitorUrl, ...common]);
    initdb(first);
    create(first);
    await until(`${first.name} registered`, readyTimeoutMs, async () => ((await state()).some((n) => n.name === first.name) ? true : undefined));
    mkdirSync(second.dir);
    chownSync(second.dir, uid, gid);
    create(second);
    await until('a primary and a secondary', readyTimeoutMs, async () => {
      const s = await state();
      return s.length === 2 && s.some((n) => n.current === 'primary' && n.assigned === 'primary') && s.some((n) => n.current === 'secondary' && n.assigned === 'secondary') ? true : undefined;
    });
    return formation;
  } catch (e) {
    await formation.dispose();
    throw e;
  }
}

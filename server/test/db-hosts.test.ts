import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { FailoverClient, failoverTarget, parsePgUrl } from '../src/core/db/hosts.js';
import { answerForDbError } from '../src/core/dbErrors.js';

/** a loopback port nobody listens on: a connection to it is refused at once */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('multi-host PostgreSQL URLs', () => {
  it('reads the hosts in order, their ports (5432 when absent) and target_session_attrs', () => {
    const t = parsePgUrl('postgres://app:s3cr%40t@10.0.0.1:6001,db-b,[::1]:6003/console?target_session_attrs=read-write&sslmode=disable');
    expect(t.hosts).toEqual([{ host: '10.0.0.1', port: 6001 }, { host: 'db-b', port: 5432 }, { host: '::1', port: 6003 }]);
    expect(t.targetSessionAttrs).toBe('read-write');
    expect(parsePgUrl('postgresql://h1:1,h2:2/db').targetSessionAttrs).toBe('any');
    expect(parsePgUrl('postgres://h1:1,h2:2/db?target_session_attrs=primary').targetSessionAttrs).toBe('primary');
  });

  it('gives each host a URL node-postgres reads as before: user, password, database and options kept', () => {
    const t = parsePgUrl('postgres://app:s3cr%40t@10.0.0.1:6001,[::1]:6003/console?target_session_attrs=read-write&application_name=x');
    const second = new pg.Client({ connectionString: t.urlFor(t.hosts[1]!) });
    expect({ host: second.host, port: second.port, user: second.user, database: second.database, password: second.password })
      .toEqual({ host: '::1', port: 6003, user: 'app', database: 'console', password: 's3cr@t' });
    expect(t.urlFor(t.hosts[0]!)).toBe('postgres://app:s3cr%40t@10.0.0.1:6001/console?target_session_attrs=read-write&application_name=x');
  });

  it('takes connect_timeout as libpq does (seconds, at least 2, 0 for none) and limits each host to 5 s without it', () => {
    expect(parsePgUrl('postgres://a:1,b:2/db').connectTimeoutMs).toBe(5000);
    expect(parsePgUrl('postgres://a:1,b:2/db?connect_timeout=10').connectTimeoutMs).toBe(10_000);
    expect(parsePgUrl('postgres://a:1,b:2/db?connect_timeout=1').connectTimeoutMs).toBe(2000);
    expect(parsePgUrl('postgres://a:1,b:2/db?connect_timeout=0').connectTimeoutMs).toBe(0);
  });

  it('refuses what it cannot honour, naming it', () => {
    expect(() => parsePgUrl('mysql://a:1,b:2/db')).toThrow(/postgres:\/\//);
    expect(() => parsePgUrl('postgres://a:1,b:70000/db')).toThrow(/bad host "b:70000"/);
    expect(() => parsePgUrl('postgres://a:1,,b:2/db')).toThrow(/bad host ""/);
    expect(() => parsePgUrl('postgres://a:1,b:x/db')).toThrow(/bad host "b:x"/);
    expect(() => parsePgUrl('postgres://a:1,b:2/db?target_session_attrs=standby')).toThrow(/target_session_attrs=standby is not supported/);
    expect(() => parsePgUrl('postgres://a:1,b:2/db?connect_timeout=2s')).toThrow(/connect_timeout=2s/);
  });

  it('leaves a one-host URL to node-postgres, unless it asks for a writable session', () => {
    expect(failoverTarget('postgres://u:p@localhost:5432/console')).toBeUndefined();
    expect(failoverTarget('postgres://u:p,w@localhost/console')).toBeUndefined();
    expect(failoverTarget('postgres:///console?host=/var/run/postgresql')).toBeUndefined();
    expect(failoverTarget('postgres://localhost/console?target_session_attrs=any')).toBeUndefined();
    expect(failoverTarget('postgres://localhost/console?target_session_attrs=read-write')?.hosts).toEqual([{ host: 'localhost', port: 5432 }]);
    expect(failoverTarget('postgres://a:1,b:2/console')?.hosts).toHaveLength(2);
    const single = new FailoverClient({ connectionString: 'postgres://u@db.example:5433/console' });
    expect({ host: single.host, port: single.port, database: single.database }).toEqual({ host: 'db.example', port: 5433, database: 'console' });
  });
});

describe('a client of several hosts', () => {
  it('tries each host and fails as unable to connect (08001, a 503 to the caller) when none answers', async () => {
    const [a, b] = [await closedPort(), await closedPort()];
    const client = new FailoverClient({ connectionString: `postgres://u@127.0.0.1:${a},127.0.0.1:${b}/db?target_session_attrs=read-write` });
    const err = await client.connect().then(() => undefined, (e: unknown) => e as Error & { code?: string });
    expect(err?.code).toBe('08001');
    expect(err?.message).toContain(`127.0.0.1:${a}: connect ECONNREFUSED`);
    expect(err?.message).toContain(`127.0.0.1:${b}: connect ECONNREFUSED`);
    expect(answerForDbError(err)).toEqual({ status: 503, key: 'databaseSwitching', retryAfter: 5 });
    await client.end();
  });

  it.runIf(Boolean(process.env.DATABASE_URL))('skips a host that refuses and keeps a writable session on the next', async () => {
    const base = process.env.DATABASE_URL!;
    const { hostname, port } = new URL(base);
    const dead = await closedPort();
    const url = `${base.replace(/^(postgres(?:ql)?:\/\/(?:[^@/]*@)?)/, `$1127.0.0.1:${dead},`)}${base.includes('?') ? '&' : '?'}target_session_attrs=read-write`;
    const client = new FailoverClient({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query<{ ro: string }>("select current_setting('transaction_read_only') as ro")).rows[0]?.ro).toBe('off');
      expect(`${client.host}:${client.port}`).toBe(`${hostname}:${port || 5432}`);
    } finally {
      await client.end();
    }
  });
});

describe('errors of a lost connection', () => {
  it('are answered 503 with Retry-After, however node-postgres reports them', () => {
    const lost = { status: 503, key: 'databaseSwitching', retryAfter: 5 };
    expect(answerForDbError(new Error('Connection terminated unexpectedly'))).toEqual(lost);
    expect(answerForDbError(new Error('Failed query: begin', { cause: new Error('Connection terminated unexpectedly') }))).toEqual(lost);
    expect(answerForDbError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toEqual(lost);
    for (const code of ['57P01', '57P02', '57P03', '25006', '08006']) expect(answerForDbError(Object.assign(new Error(code), { code }))).toEqual(lost);
    expect(answerForDbError(Object.assign(new Error('too many clients'), { code: '53300' }))).toEqual({ status: 503, key: 'databaseUnavailable' });
    expect(answerForDbError(new Error('something else'))).toBeUndefined();
  });
});

import pg from 'pg';

/**
 * Several PostgreSQL servers behind one URL, as libpq writes it (a pg_auto_failover formation):
 * `postgres://user@host1:6001,host2:6002/db?target_session_attrs=read-write`. node-postgres reads one host only;
 * FailoverClient tries them in turn and keeps the first connection that is what target_session_attrs asks for.
 */

export type TargetSessionAttrs = 'any' | 'read-write' | 'primary';

export interface PgHost {
  host: string;
  port: number;
}

export interface PgTarget {
  hosts: PgHost[];
  targetSessionAttrs: TargetSessionAttrs;
  /** the limit of one host's attempt (connect and check), ms; libpq's connect_timeout, 0 = none */
  connectTimeoutMs: number;
  /** the URL naming this host alone: what node-postgres parses (user, password, database, ssl…) */
  urlFor(host: PgHost): string;
}

const DEFAULT_PORT = 5432;
/** a dead host (no answer at all) must not hold up the others: libpq's default is to wait for TCP to give up */
const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
const ATTRS: readonly string[] = ['any', 'read-write', 'primary'];

const hostLabel = (h: PgHost) => `${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}`;

/** Parses a postgres:// URL with one host or several (`host1:port1,host2:port2`, `[::1]:5432`). */
export function parsePgUrl(url: string): PgTarget {
  const m = /^(postgres(?:ql)?):\/\/([^/?#]*)(.*)$/is.exec(url.trim());
  if (!m) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
  const [, scheme, authority = '', rest = ''] = m;
  const at = authority.lastIndexOf('@');
  const userinfo = authority.slice(0, at + 1);
  const list = authority.slice(at + 1).split(',');
  const hosts = list.map((entry): PgHost => {
    const h = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]*))(?::(\d{1,5}))?$/i.exec(entry);
    const name = h && decodeURIComponent(h[1] ?? h[2] ?? '');
    const port = h?.[3] === undefined ? DEFAULT_PORT : Number(h[3]);
    if (!h || (list.length > 1 && !name) || port < 1 || port > 65535) throw new Error(`DATABASE_URL: bad host "${entry}"`);
    return { host: name ?? '', port };
  });
  const query = new URLSearchParams(/\?([^#]*)/.exec(rest)?.[1] ?? '');
  const attrs = query.get('target_session_attrs') ?? 'any';
  if (!ATTRS.includes(attrs)) throw new Error(`DATABASE_URL: target_session_attrs=${attrs} is not supported (read-write, primary or any)`);
  const timeout = query.get('connect_timeout');
  if (timeout !== null && !/^\d+$/.test(timeout)) throw new Error(`DATABASE_URL: connect_timeout=${timeout} is not a whole number of seconds`);
  return {
    hosts,
    targetSessionAttrs: attrs as TargetSessionAttrs,
    // libpq: 0 waits forever, and less than 2 s counts as 2
    connectTimeoutMs: timeout === null ? DEFAULT_CONNECT_TIMEOUT_MS : Number(timeout) === 0 ? 0 : Math.max(2, Number(timeout)) * 1000,
    urlFor: (host) => `${scheme}://${userinfo}${host.host.includes(':') ? `[${host.host}]` : encodeURIComponent(host.host)}:${host.port}${rest}`,
  };
}

/**
 * The hosts a URL asks to choose among, or undefined when node-postgres can take it as it is (one host, any
 * session): such a URL connects exactly as it did before multi-host support.
 */
export function failoverTarget(url: string): PgTarget | undefined {
  if (!/^postgres(?:ql)?:\/\/[^/?#]*,/is.test(url.trim()) && !/[?&]target_session_attrs=/.test(url)) return undefined;
  const target = parsePgUrl(url);
  return target.hosts.length > 1 || target.targetSessionAttrs !== 'any' ? target : undefined;
}

/**
 * SQLSTATEs after which a session cannot serve this server any more though it may still be open: its node became
 * read-only (a demoted primary), or is going down. Class 08 (connection exceptions) too.
 */
const STRANDING = new Set(['25006', '57P01', '57P02', '57P03']);
export const strandsSession = (state: string | undefined): boolean => !!state && (STRANDING.has(state) || state.startsWith('08'));

/** The state node-postgres keeps for one connection (pg 8.23, lib/client.js), reset between two hosts' attempts. */
interface ClientInternals {
  connection: pg.Connection;
  connectionParameters: { host: string; port: number; ssl: unknown; sslnegotiation?: string; client_encoding?: string };
  _connecting: boolean;
  _connected: boolean;
  _connectionError: boolean;
  _queryable: boolean;
  _ending: boolean;
  _ended: boolean;
  readyForQuery: boolean;
}

type ConnectCallback = ((err: Error) => void) | ((err: null, c: pg.Client) => void);
type Config = string | pg.ClientConfig | undefined;

/** per list of hosts and session asked for: the host that last answered as asked, tried first by the next connection */
const lastGood = new Map<string, number>();

const connectionString = (config: Config) => typeof config === 'string' ? config : config?.connectionString;

/**
 * A pg.Client for a multi-host URL (pg.Pool's `Client` option). connect() tries the hosts, starting from the one
 * that last answered as asked, then the others in the URL's order; with read-write (or primary) it checks each
 * session and closes it if it is read-only (in recovery), as libpq does. With one host and any session it is
 * node-postgres's Client.
 */
export class FailoverClient extends pg.Client {
  private readonly target: PgTarget | undefined;
  private readonly options: Exclude<Config, string>;
  /** the server answered this session with a stranding error (strandsSession): the pool must not keep it */
  stranded: boolean;

  constructor(config?: Config) {
    const url = connectionString(config);
    const target = url === undefined ? undefined : failoverTarget(url);
    const options = typeof config === 'string' ? { connectionString: config } : config;
    super(target ? { ...options, connectionString: target.urlFor(target.hosts[0]!) } : config);
    this.target = target;
    this.options = options;
    this.stranded = false;
    this.watch(this.connection);
  }

  override connect(): Promise<pg.Client>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.Client> | void {
    if (!this.target) return callback ? super.connect(callback) : super.connect();
    // a session that breaks once connected (its node killed during the check) makes node-postgres emit 'error',
    // which would stop the process: the pool listens only once connect() has answered
    const ignore = () => undefined;
    this.on('error', ignore);
    const connecting = this.connectAny(this.target).finally(() => this.removeListener('error', ignore));
    if (!callback) return connecting;
    connecting.then(() => (callback as (err: null, c: pg.Client) => void)(null, this), (e: Error) => (callback as (err: Error) => void)(e));
  }

  private async connectAny(target: PgTarget): Promise<pg.Client> {
    const key = `${target.targetSessionAttrs} ${target.hosts.map(hostLabel).join(',')}`;
    const start = lastGood.get(key) ?? 0;
    const refusals: string[] = [];
    let cause: unknown;
    for (let i = 0; i < target.hosts.length; i++) {
      const index = (start + i) % target.hosts.length;
      const host = target.hosts[index]!;
      let refusal: string | undefined;
      try {
        refusal = await this.attempt(host, target);
      } catch (e) {
        cause = e;
        refusal = e instanceof Error ? e.message : String(e);
      }
      if (refusal === undefined) {
        lastGood.set(key, index);
        return this;
      }
      refusals.push(`${hostLabel(host)}: ${refusal}`);
      this.renew();
    }
    const want = target.targetSessionAttrs === 'any' ? 'PostgreSQL server' : `${target.targetSessionAttrs} PostgreSQL server`;
    // 08001 (sqlclient_unable_to_establish_sqlconnection), as libpq: answered as the database being unavailable
    throw Object.assign(new Error(`no ${want} to connect to (${refusals.join('; ')})`, { cause }), { code: '08001' });
  }

  /** Connects this client to one host: undefined when the session is what the URL asks for, else why not. */
  private async attempt(host: PgHost, target: PgTarget): Promise<string | undefined> {
    const self = this as unknown as ClientInternals;
    this.host = self.connectionParameters.host = host.host;
    this.port = self.connectionParameters.port = host.port;
    const timer = target.connectTimeoutMs > 0
      ? setTimeout(() => self.connection.stream.destroy(new Error('timeout expired')), target.connectTimeoutMs)
      : undefined;
    try {
      await new Promise<void>((resolve, reject) => super.connect((err: Error | null) => (err ? reject(err) : resolve())));
      if (target.targetSessionAttrs === 'any') return undefined;
      // as libpq: read-write asks transaction_read_only (pg_auto_failover keeps a promoted standby, no longer in
      // recovery, read-only until the old primary is out), primary asks pg_is_in_recovery()
      const { rows } = await super.query<{ recovery: boolean; read_only: string }>(
        "select pg_is_in_recovery() as recovery, current_setting('transaction_read_only') as read_only",
      );
      const row = rows[0];
      if (target.targetSessionAttrs === 'primary') return row?.recovery === false ? undefined : 'in recovery';
      return row?.read_only === 'off' ? undefined : 'read-only';
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Closes the connection of a failed or refused attempt and gives the client a new one, as the constructor did:
   * a node-postgres client connects once, so its per-connection state is reset for the next host.
   */
  private renew(): void {
    const self = this as unknown as ClientInternals;
    const old = self.connection;
    // the old connection's events ('end', a late socket error) must not reach the client's next attempt
    old.removeAllListeners();
    old.on('error', () => undefined);
    old.end();
    const params = self.connectionParameters;
    self.connection = new pg.Connection({
      ssl: params.ssl,
      sslNegotiation: params.sslnegotiation,
      keepAlive: this.options?.keepAlive ?? false,
      keepAliveInitialDelayMillis: this.options?.keepAliveInitialDelayMillis ?? 0,
      encoding: params.client_encoding || 'utf8',
    } as ConstructorParameters<typeof pg.Connection>[0]);
    Object.assign(self, { _connecting: false, _connected: false, _connectionError: false, _queryable: true, _ending: false, _ended: false, readyForQuery: false });
    this.watch(self.connection);
  }

  private watch(connection: pg.Connection): void {
    connection.on('errorMessage', (e: { code?: string }) => {
      if (strandsSession(e.code)) this.stranded = true;
    });
  }
}

/**
 * What a pool of FailoverClients must do with connections a failover broke:
 * - a client whose server stranded its session (strandsSession: left on a node that became read-only, every later
 *   write on it would fail too) is closed when it comes back, not kept: pg-pool emits 'release' just before it
 *   decides, and closes a client that is not queryable;
 * - a client whose connection is lost while lent out is given back at once, its holder's later release being a
 *   no-op: drizzle's transaction() never releases a client whose BEGIN failed, which would leave the pool one
 *   connection short for good on every failover. node-postgres emits 'error' on such a client, which would also
 *   stop the process without a listener; its holder gets the error from its statements.
 */
export function dropBrokenClients(pool: pg.Pool): void {
  const lent = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => lent.add(client));
  pool.on('release', (err, client) => {
    lent.delete(client);
    if (!err && client instanceof FailoverClient && client.stranded) (client as unknown as ClientInternals)._queryable = false;
  });
  pool.on('connect', (client) => {
    client.on('error', (e) => {
      if (!lent.has(client)) return; // idle: the pool's own listener drops it
      client.release(e);
      client.release = () => undefined;
    });
  });
}

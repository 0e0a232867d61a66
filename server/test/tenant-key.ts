import pg from 'pg';

/**
 * Records the statements the server sends to PostgreSQL, with the role each ran as, to check that every statement
 * on a tenant table names the tenant (`tenant_id`): what a database sharded by tenant (docs/sharding.md) routes by.
 * A statement run as `console_platform` is a deliberate operation across tenants (the schedulers, the platform's
 * views of every tenant) and is reported apart.
 */
export interface Recorded { text: string; role: string }

export function recordStatements(): { recorded: Map<string, Recorded>; stop(): void } {
  const recorded = new Map<string, Recorded>();
  const roles = new WeakMap<object, string>();
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function patched(this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    const text = typeof first === 'string' ? first : first?.text ?? '';
    const values = (Array.isArray(args[1]) ? args[1] : typeof first === 'object' ? first?.values : undefined) as unknown[] | undefined;
    const role = /set_config\('role', (?:\$1|'([a-z_]+)')/.exec(text);
    if (role) roles.set(this, role[1] ?? String(values?.[0]));
    else if (/^\s*(commit|rollback)\b/i.test(text)) roles.delete(this);
    else if (text) {
      const as = roles.get(this) ?? 'owner';
      const key = `${as}\u0000${text}`;
      if (!recorded.has(key)) recorded.set(key, { text, role: as });
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return { recorded, stop: () => { pg.Client.prototype.query = original; } };
}

const MAINTENANCE = /^\s*(vacuum|analyze|create|alter|drop|comment|grant|revoke|lock|set|reset|show|begin|commit|rollback|savepoint|release|listen|notify|select pg_advisory|select set_config)\b/i;

/**
 * The statements on tenant tables that name the tenant fewer times than they name tenant tables (a join of two
 * tenant tables names it for each: sharded, both sides are found by it).
 */
export function withoutTenantKey(statements: Iterable<Recorded>, tenantTables: ReadonlySet<string>): Recorded[] {
  const out: Recorded[] = [];
  for (const s of statements) {
    if (s.role === 'console_platform' || MAINTENANCE.test(s.text)) continue;
    const text = s.text.replace(/'(?:[^']|'')*'/g, "''");
    const tables = [...text.matchAll(/(?:from|join|into|update)\s+"?([a-z_][a-z0-9_]*)"?/gi)].map((m) => m[1]!.toLowerCase()).filter((t) => tenantTables.has(t));
    if (tables.length === 0) continue;
    const keys = (text.match(/\btenant_id\b/gi) ?? []).length;
    if (keys < tables.length) out.push(s);
  }
  return out;
}

import type { Executor } from './index.js';

/**
 * Statements of a hot path run on the transaction's own connection, past drizzle: its `sql` template, prepared
 * query and result mapping cost about twice a short statement's own round trip on this machine (a workflow step's
 * four statements: bench/ceilings/flow.ts). A statement is written as `stmt\`… ${value} …\``; a value that is a
 * statement itself is spliced in (its values numbered in order), anything else is a parameter. Rows come back as
 * the driver answers them: name the columns with `as "camelCase"`, and cast what must arrive as text (bigint ids:
 * `id::text`); json and jsonb arrive parsed, arrays as arrays.
 */
export interface Statement {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

const isStatement = (v: unknown): v is Statement =>
  typeof v === 'object' && v !== null && Array.isArray((v as Statement).strings) && Array.isArray((v as Statement).values);

export function stmt(strings: TemplateStringsArray, ...values: unknown[]): Statement {
  return { strings, values };
}

/** text to splice in as it is (a fixed list of columns); never a caller's value */
export const verbatim = (text: string): Statement => ({ strings: [text], values: [] });

export const EMPTY: Statement = verbatim('');

/** the statements one after the other, `separator` between them */
export function joined(parts: readonly Statement[], separator: string): Statement {
  const strings: string[] = [''];
  const values: unknown[] = [];
  parts.forEach((part, i) => {
    if (i > 0) strings[strings.length - 1] += separator;
    values.push(part);
    strings.push('');
  });
  return { strings, values };
}

/** the statement's text with `$n` parameters, and their values */
export function toQuery(s: Statement): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const walk = (x: Statement): string => {
    let text = x.strings[0]!;
    for (let i = 0; i < x.values.length; i++) {
      const v = x.values[i];
      if (isStatement(v)) text += walk(v);
      else {
        params.push(v === undefined ? null : v);
        text += `$${params.length}`;
      }
      text += x.strings[i + 1]!;
    }
    return text;
  };
  return { text: walk(s), params };
}

interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** the connection a drizzle transaction runs on (node-postgres' client, or the embedded database's transaction) */
function connectionOf(tx: Executor): Queryable {
  const client = (tx as unknown as { session?: { client?: Partial<Queryable> } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('rawQuery: no connection behind this transaction');
  return client as Queryable;
}

/** Runs `s` in the transaction `tx` (inside inTenant: the tenant's role and row-level security apply); answers its rows. */
export async function rawQuery<T>(tx: Executor, s: Statement): Promise<T[]> {
  const { text, params } = toQuery(s);
  return (await connectionOf(tx).query(text, params)).rows as T[];
}

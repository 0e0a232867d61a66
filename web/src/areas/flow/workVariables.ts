/** One key/value row of the generic start dialog. */
export interface VariableRow {
  name?: string | null;
  value?: string | null;
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** a number as the model compares it; an id (too long to be exact) or a code with leading zeros stays text */
function typed(raw: string): unknown {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (!NUMBER.test(raw)) return raw;
  const n = Number(raw);
  return Number.isInteger(n) && !Number.isSafeInteger(n) ? raw : n;
}

/**
 * The process variables of the generic start dialog's rows: a number or true/false is sent as such, so that a
 * condition like `${days > 3}` or `${pass}` compares it as the model means; anything else (a user id too) as
 * text. Rows without a name are left out; a later row of the same name wins. Undefined when there is none.
 */
export function variablesOf(rows: readonly VariableRow[] | null | undefined): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const row of rows ?? []) {
    const name = row.name?.trim();
    if (!name) continue;
    out[name] = typed((row.value ?? '').trim());
  }
  return Object.keys(out).length ? out : undefined;
}

/** The server's rule for a variable's name (contract: workStartResource.actions.startProcess). */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

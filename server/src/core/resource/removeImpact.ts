import { type Lang, msg, type RemoveImpact, type RemovePolicy, t } from '@console/contract';
import type { AuthUser } from '../callers.js';
import type { Executor } from '../db/index.js';
import { AppError } from '../errors.js';
import { deriveDependents } from './dependents.js';
import type { Dependent, DependentUse, ResourceRegistry } from './registry.js';

type Row = Record<string, unknown>;

/** one dependent that uses some of the rows, and how */
export interface Use {
  dependent: Dependent;
  use: DependentUse;
}

/** What uses the rows `ids` of resource `code` (only the dependents some live row of which does). */
export async function usesOf(tx: Executor, registry: ResourceRegistry, code: string, ids: string[], user: AuthUser): Promise<Use[]> {
  const out: Use[] = [];
  for (const dependent of registry.dependentsOf(code, deriveDependents)) {
    const use = await dependent.uses(tx, ids, user);
    if (use.total > 0) out.push({ dependent, use });
  }
  return out;
}

const quoted = (names: string[], lang: Lang) => names.map((n) => msg('removeTargetOne', lang, { name: n })).join(lang === 'zh' ? '、' : ', ');

function usedText(u: Use, target: string, lang: Lang): string {
  const what = t(u.dependent.label, lang);
  const { total, others, names } = u.use;
  const used = names.length
    ? msg('removeUsedNamed', lang, { what, names: quoted(names, lang), count: total, target })
    : msg('removeUsedCounted', lang, { what, count: total, target });
  return others > 0 ? msg('removeUsedByOthers', lang, { used, others }) : used;
}

/** the removed rows as messages name them: 「X1」, or 「X1」等 3 条记录 */
function targetText(rows: Row[], nameField: string, lang: Lang): string {
  const name = String(rows[0]?.[nameField] ?? '');
  return rows.length > 1 ? msg('removeTargetMany', lang, { name, count: rows.length, more: rows.length - 1 }) : msg('removeTargetOne', lang, { name });
}

const EFFECT = { cascade: 'removeCascades', detach: 'removeDetaches', keep: 'removeKeeps' } as const;

const refusing = (uses: Use[]) => uses.filter((u) => u.dependent.policy === 'refuse');

/** What a remove of `rows` would do, in the caller's language (the answer of `<remove>-impact`). */
export function describeImpact(uses: Use[], rows: Row[], nameField: string, lang: Lang): RemoveImpact {
  const refused = refusing(uses);
  const list = (refused.length ? refused : uses).map((u) => ({
    resource: t(u.dependent.label, lang), policy: u.dependent.policy, count: u.use.total, names: u.use.names,
  }));
  if (refused.length) return { refused: true, message: msg('removeInUse', lang, { uses: refusedUses(refused, rows, nameField, lang) }), uses: list };
  if (uses.length === 0) return { refused: false, message: '', uses: [] };
  const effects = uses.map((u) => msg(EFFECT[u.dependent.policy as Exclude<RemovePolicy, 'refuse'>], lang, { what: t(u.dependent.label, lang), count: u.use.total }));
  return { refused: false, message: msg('removeWithOthers', lang, { effects: effects.join(lang === 'zh' ? '；' : '; ') }), uses: list };
}

/** the uses that refuse the remove, as removeInUse lists them */
function refusedUses(refused: Use[], rows: Row[], nameField: string, lang: Lang): string {
  const target = targetText(rows, nameField, lang);
  return refused.map((u) => usedText(u, target, lang)).join(lang === 'zh' ? '；' : '; ');
}

/**
 * Refuses the remove (409, before anything changed) when a live row still uses one of `rows`; else answers the
 * uses whose dependents cascade or detach, for `release` once the resource's own rules passed.
 */
export async function refuseIfUsed(tx: Executor, registry: ResourceRegistry, code: string, rows: Row[], nameField: string, user: AuthUser): Promise<Use[]> {
  const uses = await usesOf(tx, registry, code, rows.map((r) => String(r.id)), user);
  const refused = refusing(uses);
  if (refused.length) {
    throw new AppError(409, 'removeInUse', { uses: { zh: refusedUses(refused, rows, nameField, 'zh'), en: refusedUses(refused, rows, nameField, 'en') } });
  }
  return uses;
}

/** lets the cascading and detaching dependents let go of `ids`, in the remove's transaction */
export async function release(tx: Executor, uses: Use[], ids: string[], user: AuthUser): Promise<void> {
  for (const u of uses) await u.dependent.release?.(tx, ids, user);
}

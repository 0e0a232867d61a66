import { type Lang, msg } from '@console/contract';
import { dictBizResource } from '@console/contract/areas/system/index';
import { and, asc, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { isPlatformAdmin } from '../../core/access.js';
import type { AppContext, AuthUser } from '../../core/context.js';
import { type Executor, schema } from '../../core/db/index.js';
import { AppError, badRequest } from '../../core/errors.js';
import { localName } from '../../core/localName.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { dictBiz } from './tables.js';

type Row = Record<string, unknown>;
type DictTable = typeof schema.dict | typeof dictBiz;

/** The fields a sealed entry's unsealing may carry unchanged (clients echo back what `detail` gave them). */
const EDITABLE = ['code', 'dictValue', 'dictValueEn', 'sort', 'remark', 'parentId', 'dictKey'] as const;
const ROOT = '0';

const same = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');

/**
 * The rules of both dictionaries beyond the engine's (api.md §6 "Sealed dictionary entries"):
 * - an entry below another takes its parent's code (a header's code change follows to its whole subtree);
 * - (code, dictKey) is unique among live rows (per tenant for the business dictionary);
 * - a sealed entry (isSealed 1) is neither updated nor removed, except that the platform's administrator
 *   may unseal it (an update that only sets isSealed 0);
 * - every change drops the display-value cache on every instance, once committed.
 */
export function dictHooks(table: DictTable, tenantScoped: boolean): (ctx: AppContext) => ResourceHooks {
  const c = table as unknown as Record<string, PgColumn>;
  const live = (user: AuthUser): SQL[] => {
    const conds: SQL[] = [eq(c.isDeleted!, 0)];
    if (tenantScoped) conds.push(eq(c.tenantId!, user.tenantId));
    return conds;
  };
  const rowOf = async (tx: Executor, user: AuthUser, id: string): Promise<Row | undefined> => {
    const [row] = await tx.select().from(table).where(and(eq(c.id!, id), ...live(user)));
    return row as Row | undefined;
  };
  /** the ids of every live row below `id` */
  const descendants = async (tx: Executor, user: AuthUser, id: string): Promise<string[]> => {
    const out: string[] = [];
    let level = [id];
    for (let depth = 0; level.length && depth < 100; depth++) {
      const rows = await tx.select({ id: c.id! }).from(table).where(and(inArray(c.parentId!, level), ...live(user)));
      level = rows.map((r) => String(r.id)).filter((x) => !out.includes(x) && x !== id);
      out.push(...level);
    }
    return out;
  };
  const sealedError = (name: unknown, lang: Lang, key: 'dictSealed' | 'dictUnsealOnly' = 'dictSealed') =>
    badRequest(key, { name: String(name ?? '') }, { isSealed: msg(key, lang, { name: String(name ?? '') }) });

  return (ctx) => ({
    async beforeSave(tx, values, s) {
      const stored = s.stored;
      if (stored && Number(stored.isSealed) === 1) {
        const unsealOnly = values.isSealed === 0 && EDITABLE.every((f) => !(f in values) || same(values[f], stored[f]));
        if (!unsealOnly || !isPlatformAdmin(s.user)) {
          // the administrator unsealing together with other changes is told how to unseal
          const unsealing = values.isSealed === 0 && isPlatformAdmin(s.user);
          throw sealedError(stored.dictValue, s.lang, unsealing ? 'dictUnsealOnly' : 'dictSealed');
        }
      }
      const parentId = String(values.parentId ?? stored?.parentId ?? ROOT);
      if (parentId !== ROOT) {
        // an item belongs to its parent's dictionary (the reference was checked to exist)
        const parent = await rowOf(tx, s.user, parentId);
        if (parent) values.code = parent.code;
      } else if (stored && values.code !== undefined && !same(values.code, stored.code)) {
        // a header renamed: its items follow (afterSave), unless another dictionary has that code
        const [taken] = await tx.select({ id: c.id! }).from(table)
          .where(and(eq(c.code!, String(values.code)), ne(c.code!, String(stored.code)), ...live(s.user))).limit(1);
        if (taken) {
          throw new AppError(409, 'dictCodeTaken', { code: String(values.code) }, { code: msg('dictCodeTaken', s.lang, { code: String(values.code) }) });
        }
      }
      const code = String(values.code ?? stored?.code ?? '');
      const dictKey = String(values.dictKey ?? stored?.dictKey ?? '');
      const conds = [eq(c.code!, code), eq(c.dictKey!, dictKey), ...live(s.user)];
      if (stored) conds.push(ne(c.id!, String(stored.id)));
      const [dup] = await tx.select({ id: c.id! }).from(table).where(and(...conds)).limit(1);
      if (dup) {
        const params = { code, key: dictKey };
        throw new AppError(409, 'dictKeyDuplicate', params, { dictKey: msg('dictKeyDuplicate', s.lang, params) });
      }
      s.afterCommit(() => ctx.dicts.invalidate());
    },
    async afterSave(tx, saved, s) {
      if (!s.stored || same(s.stored.code, saved.code)) return;
      const below = await descendants(tx, s.user, String(saved.id));
      if (below.length) {
        await tx.update(table).set({ code: String(saved.code), updateUser: s.user.userId, updateTime: new Date() } as never)
          .where(and(inArray(c.id!, below), ...live(s.user)));
      }
    },
    async beforeRemove(_tx, rows, r) {
      const sealed = rows.find((row) => Number(row.isSealed) === 1);
      if (sealed) {
        const name = String(sealed.dictValue ?? '');
        throw badRequest('dictSealed', { name }, { ids: msg('dictSealed', r.lang, { name }) });
      }
      r.afterCommit(() => ctx.dicts.invalidate());
    },
  });
}

export const systemDictHooks = dictHooks(schema.dict, false);
export const bizDictHooks = dictHooks(dictBiz, true);

/** `dict-biz/dictionary?code=`: the caller's tenant's items of a business dictionary, in order. */
export function registerDictionaryRoutes(app: FastifyInstance, ctx: AppContext): void {
  mountAction(app, ctx, dictBizResource.actions.dictionary, async ({ code }, { tx, user, lang }) => {
    const rows = await tx.select().from(dictBiz)
      .where(and(eq(dictBiz.tenantId, user.tenantId), eq(dictBiz.code, code), ne(dictBiz.parentId, ROOT), eq(dictBiz.isDeleted, 0)))
      .orderBy(asc(dictBiz.sort), asc(dictBiz.id));
    return rows.map((r) => ({
      id: r.id, code: r.code, dictKey: r.dictKey, dictValue: localName(r.dictValue, r.dictValueEn, lang), sort: r.sort, remark: r.remark ?? '',
    }));
  }, { labels: { code: { zh: '字典编码', en: 'code' } } });
}

import { AGREEMENT_TYPES, type Agreement, type AgreementType, API } from '@console/contract';
import { agreementSettingActions, agreementSettingResource } from '@console/contract/areas/setting/index';
import { and, asc, desc, eq, lte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { DataStep } from '../../core/area.js';
import type { AppContext } from '../../core/context.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { AppError, notFound } from '../../core/errors.js';
import { sanitizeHtml } from '../../core/html.js';
import { nextId } from '../../core/ids.js';
import { callHere } from '../../core/callHere.js';
import { mountAction, mountOutsideTransaction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { dropServerFields } from '../../core/resource/hooks.js';
import { formatDateTime } from '../../core/time.js';
import { DEFAULT_AGREEMENTS } from './agreements.js';
import { agreement } from './tables.js';

/** The shipped texts, published as version 1.0 (the step kept its name when agreements moved here from system). */
export const AGREEMENT_DATA_STEP: DataStep = {
  name: '0003-default-agreements',
  async run(tx) {
    const publishTime = new Date();
    await tx.insert(agreement).values(DEFAULT_AGREEMENTS.map((a) => ({ id: nextId(), ...a, version: '1.0', published: 1, publishTime })));
  },
};

/** A published version is what users accepted: it is never edited nor removed; a new version is written instead. */
export const agreementHooks = (): ResourceHooks => ({
  async beforeSave(_tx, values, c) {
    if (c.mode === 'update' && c.stored?.published === 1) throw new AppError(400, 'agreementPublished');
    // published only by `publish`
    dropServerFields(values, ['published', 'publishTime']);
    if (c.mode === 'create') values.published = 0;
  },
  async beforeRemove(_tx, rows) {
    if (rows.some((r) => r.published === 1)) throw new AppError(400, 'agreementPublished');
  },
});

type AgreementRow = typeof agreement.$inferSelect;
const versionOf = (r: AgreementRow | undefined) =>
  (r ? { id: r.id, title: r.title, version: r.version, content: r.content, publishTime: formatDateTime(r.publishTime) } : null);

export function registerAgreements(app: FastifyInstance, ctx: AppContext): void {
  // each type and language: the version users read now, and the newest draft (what the next publish would show)
  mountAction(app, ctx, agreementSettingActions.read, async ({ type, language }, { tx }) => {
    const rows = await tx.select().from(agreement)
      .where(and(eq(agreement.isDeleted, 0), type ? eq(agreement.type, type) : undefined, language ? eq(agreement.language, language) : undefined))
      .orderBy(asc(agreement.type), asc(agreement.language), desc(agreement.publishTime), desc(agreement.createTime), desc(agreement.id));
    const keys = [...new Set(rows.map((r) => `${r.type}:${r.language}`))];
    return keys.map((key) => {
      const mine = rows.filter((r) => `${r.type}:${r.language}` === key);
      const now = Date.now();
      return {
        type: mine[0]!.type, language: mine[0]!.language,
        published: versionOf(mine.find((r) => r.published === 1 && r.publishTime && r.publishTime.getTime() <= now)),
        draft: versionOf(mine.filter((r) => r.published === 0).sort((a, b) => b.createTime.getTime() - a.createTime.getTime())[0]),
      };
    });
  });
  mountOutsideTransaction(app, agreementSettingActions.save, async (input, { req }) =>
    callHere<{ id: string }>(app, req, `${agreementSettingResource.path}/submit`, input));

  mountAction(app, ctx, agreementSettingResource.actions.publish, async ({ id }, { tx, user }) => {
    const [row] = await tx.select({ published: agreement.published }).from(agreement).where(and(eq(agreement.id, id), eq(agreement.isDeleted, 0))).for('update');
    if (!row) throw notFound();
    if (row.published === 1) throw new AppError(400, 'agreementPublished');
    await tx.update(agreement).set({ published: 1, publishTime: new Date(), updateUser: user.userId, updateTime: new Date() }).where(eq(agreement.id, id));
    return true;
  });

  app.get(API.agreement, {
    config: { access: { public: true }, fieldLabels: { type: { zh: '协议类型', en: 'Agreement type' } } },
    schema: {
      tags: ['app'],
      summary: 'The latest published agreement of a type, in the caller\'s language (Chinese when missing)',
      querystring: z.object({ type: z.enum(AGREEMENT_TYPES) }).strict(),
      docsOnly: {
        response: {
          200: envelopeOf(z.object({
            id: z.string(), type: z.enum(AGREEMENT_TYPES), language: z.string(), title: z.string(), content: z.string().describe('sanitised HTML'),
            version: z.string(), publishTime: z.string(),
          })),
        },
      },
    },
  }, async (req) => {
    const { type } = req.query as { type: AgreementType };
    const latest = async (language: string) => {
      const [row] = await ctx.db.select().from(agreement)
        .where(and(eq(agreement.type, type), eq(agreement.language, language), eq(agreement.isDeleted, 0),
          eq(agreement.published, 1), lte(agreement.publishTime, new Date())))
        .orderBy(desc(agreement.publishTime), desc(agreement.id))
        .limit(1);
      return row;
    };
    const row = (await latest(req.lang)) ?? (req.lang === 'zh' ? undefined : await latest('zh'));
    if (!row) throw new AppError(404, 'agreementNotFound');
    const body: Agreement = {
      id: row.id, type, language: row.language, title: row.title, content: sanitizeHtml(row.content),
      version: row.version, publishTime: formatDateTime(row.publishTime) ?? '',
    };
    return ok(body, req.lang);
  });

}

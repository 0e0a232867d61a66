import { firmwareResource, RELEASE_STATE } from '@console/contract/areas/device/index';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { AppError, fieldError, notFound } from '../../core/errors.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { byProductColumn } from '../product/index.js';
import { firmware, otaTask } from './tables.js';
import { attach } from '../resource/index.js';

type Row = Record<string, unknown>;

/** Set by the server only: the file's measure, the state its actions move, the cloud's id. */
const SERVER_FIELDS = ['fileSize', 'sha256', 'md5', 'state', 'publishTime', 'cloudFirmwareId'] as const;

/**
 * The file of a firmware is one this server stored (multipart submit or put-file): its size and digests come
 * from the attachment register, measured as the bytes were stored, never from the client.
 */
export async function measured(tx: Executor, tenantId: string, link: string) {
  const [file] = await tx.select({ size: attach.attachSize, sha256: attach.sha256, md5: attach.md5 })
    .from(attach).where(and(eq(attach.tenantId, tenantId), eq(attach.link, link), eq(attach.isDeleted, 0))).limit(1);
  return file;
}

export const firmwareHooks = (): ResourceHooks => ({
  scope: byProductColumn(firmware.productId),
  async beforeSave(tx, values, c) {
    for (const name of SERVER_FIELDS) delete values[name];
    if (c.mode === 'update' && Number(c.stored?.state) !== RELEASE_STATE.draft && values.file !== undefined && values.file !== c.stored?.file) {
      throw fieldError('firmwareFileFixed', c.lang, 'file');
    }
    if (c.mode === 'create') values.state = RELEASE_STATE.draft;
    const link = typeof values.file === 'string' ? values.file : undefined;
    if (link && link !== c.stored?.file) {
      const file = await measured(tx, c.user.tenantId, link);
      if (!file) throw fieldError('firmwareFileUnknown', c.lang, 'file');
      values.fileSize = file.size;
      values.sha256 = file.sha256;
      values.md5 = file.md5;
    }
  },
  async beforeRemove(tx, rows) {
    const published = rows.find((r) => Number(r.state) === RELEASE_STATE.published);
    if (published) throw new AppError(400, 'firmwarePublishedRemove', { version: String(published.version) });
    const ids = rows.map((r) => String(r.id));
    const [running] = await tx.select({ taskName: otaTask.taskName }).from(otaTask)
      .where(and(sql`${otaTask.firmwareId} = any(${`{${ids.join(',')}}`}::bigint[])`, eq(otaTask.state, 'running'), eq(otaTask.isDeleted, 0))).limit(1);
    if (running) throw new AppError(400, 'firmwareInUse', { task: running.taskName });
  },
});

async function live(tx: Executor, id: string): Promise<Row> {
  const [row] = await tx.select().from(firmware).where(and(eq(firmware.id, id), eq(firmware.isDeleted, 0)));
  if (!row) throw notFound();
  return row;
}

export function registerFirmwareActions(app: FastifyInstance, ctx: AppContext): void {
  const { publish, withdraw } = firmwareResource.actions;

  mountAction(app, ctx, publish, async ({ id }, { tx, user }) => {
    const row = await live(tx, id);
    if (Number(row.state) !== RELEASE_STATE.draft) throw new AppError(400, 'firmwareNotDraft', { version: String(row.version) });
    if (!row.sha256 || !row.fileSize) throw new AppError(400, 'firmwareFileUnknown');
    await tx.update(firmware).set({ state: RELEASE_STATE.published, publishTime: new Date(), updateUser: user.userId, updateTime: new Date() }).where(eq(firmware.id, id));
    return true;
  });

  mountAction(app, ctx, withdraw, async ({ id }, { tx, user }) => {
    const row = await live(tx, id);
    if (Number(row.state) !== RELEASE_STATE.published) throw new AppError(400, 'firmwareNotPublished', { version: String(row.version) });
    await tx.update(firmware).set({ state: RELEASE_STATE.withdrawn, updateUser: user.userId, updateTime: new Date() }).where(eq(firmware.id, id));
    return true;
  });
}

import { isIdText } from '@console/contract';
import { attachResource } from '@console/contract/areas/resource/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../core/access.js';
import { fileAnswer } from '../../core/apiDocs.js';
import type { AppContext } from '../../core/context.js';
import { inTenant } from '../../core/db/index.js';
import { notFound } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { removeStoredFiles, sendAttachment } from './files.js';
import type { OssStorages } from './storages.js';
import { attach } from './tables.js';

/**
 * Removing attachments: the rows leave the tenant's quota at once (soft delete, in the transaction); the
 * bytes are deleted from the storage holding each once it committed. A storage that fails to delete is
 * logged, never undoes the removal (the file is unreachable: its row is gone).
 */
export function attachHooks(storages: OssStorages) {
  return (ctx: AppContext): ResourceHooks => ({
    async beforeRemove(_tx, rows, c) {
      const files = rows.map((r) => ({ name: String(r.name), ossId: r.ossId ? String(r.ossId) : null }));
      c.afterCommit(() => removeStoredFiles(ctx.db, storages, files));
    },
  });
}

/** `attach/download?id=`: the file as a download (the token may come as `?blade-auth=`, for a plain link). */
export function registerAttachRoutes(app: FastifyInstance, ctx: AppContext, storages: OssStorages): void {
  const action = attachResource.actions.download;
  app.get(action.path, {
    config: { access: { permission: action.permission } },
    schema: {
      tags: ['blade-resource'], summary: 'Attachments: download one file (the token may be given as ?blade-auth=)',
      querystring: z.object({ id: z.string().trim().refine(isIdText) }).passthrough(),
      docsOnly: { response: { 200: fileAnswer('the file, as the content type it was uploaded with', 'application/octet-stream') } },
    },
  }, async (req, reply) => {
    const user = requireUser(req);
    const { id } = req.query as { id: string };
    const found = await inTenant(ctx.db, { tenantId: user.tenantId }, async (tx) => {
      const [row] = await tx.select().from(attach)
        .where(and(eq(attach.id, id), eq(attach.tenantId, user.tenantId), eq(attach.isDeleted, 0)));
      return row ? { row, storage: await storages.forFile(tx, row.ossId) } : null;
    });
    if (!found) throw notFound();
    return sendAttachment(reply, found.row, found.storage, 'attachment', 'private, no-store');
  });
}

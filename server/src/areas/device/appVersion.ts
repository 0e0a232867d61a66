import { appVersionResource, RELEASE_STATE } from '@console/contract/areas/device/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { schema, type Executor } from '../../core/db/index.js';
import { AppError, notFound } from '../../core/errors.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { appVersion } from './tables.js';

/** Set by the server only: the state its actions move, and who published when. */
const SERVER_FIELDS = ['state', 'publishTime', 'publishUser', 'publishUserName'] as const;

/** A new app version is a draft: the app is offered it once someone publishes it. */
export const appVersionHooks = (): ResourceHooks => ({
  async beforeSave(_tx, values, c) {
    for (const name of SERVER_FIELDS) delete values[name];
    if (c.mode === 'create') values.state = RELEASE_STATE.draft;
  },
});

async function live(tx: Executor, id: string) {
  const [row] = await tx.select().from(appVersion).where(and(eq(appVersion.id, id), eq(appVersion.isDeleted, 0)));
  if (!row) throw notFound();
  return row;
}

export function registerAppVersionActions(app: FastifyInstance, ctx: AppContext): void {
  const { publish, withdraw } = appVersionResource.actions;

  mountAction(app, ctx, publish, async ({ id }, { tx, user }) => {
    const row = await live(tx, id);
    if (row.state === RELEASE_STATE.published) throw new AppError(400, 'appVersionNotPublishable', { version: row.versionName });
    // the app is told where to get it: a version with neither a package nor a store link cannot be offered
    if (!row.package && !row.storeUrl) throw new AppError(400, 'appVersionNoDownload', { version: row.versionName });
    const [me] = await tx.select({ name: schema.user.realName }).from(schema.user).where(eq(schema.user.id, user.userId));
    const now = new Date();
    await tx.update(appVersion).set({
      state: RELEASE_STATE.published, publishTime: now, publishUser: user.userId, publishUserName: me?.name || user.account,
      updateUser: user.userId, updateTime: now,
    }).where(eq(appVersion.id, id));
    return true;
  });

  mountAction(app, ctx, withdraw, async ({ id }, { tx, user }) => {
    const row = await live(tx, id);
    if (row.state !== RELEASE_STATE.published) throw new AppError(400, 'appVersionNotPublished', { version: row.versionName });
    await tx.update(appVersion).set({ state: RELEASE_STATE.withdrawn, updateUser: user.userId, updateTime: new Date() }).where(eq(appVersion.id, id));
    return true;
  });
}

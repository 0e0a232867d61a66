import { postsaleUserResource } from '@console/contract/areas/postsale/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { AppError, notFound } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { dropServerFields } from '../../core/resource/hooks.js';
import { mountAction } from '../../core/resource/actions.js';
import { postsaleUser } from './tables.js';

/** App users register in the app (appAccount.ts): the screen has no add button, and no caller creates one here. */
export const postsaleUserHooks = (): ResourceHooks => ({
  async beforeSave(_tx, values, c) {
    if (c.mode === 'create') throw new AppError(400, 'appUserByApp');
    dropServerFields(values, ['passwordReset', 'registerTime', 'lastLoginTime']);
  },
});

/** The console edits, disables, resets and removes app users. */
export function registerUserActions(app: FastifyInstance, ctx: AppContext): void {
  // the app is signed out at once (its tokens name the password's time) and its sign-in refused until the user
  // sets a new password with an SMS code
  mountAction(app, ctx, postsaleUserResource.actions.resetPass, async ({ id }, { tx, user }) => {
    const done = await tx.update(postsaleUser).set({ passwordReset: 1, passwordTime: new Date(), updateUser: user.userId, updateTime: new Date() })
      .where(and(eq(postsaleUser.id, id), eq(postsaleUser.tenantId, user.tenantId), eq(postsaleUser.isDeleted, 0))).returning({ id: postsaleUser.id });
    if (done.length === 0) throw notFound();
    return true;
  });
}

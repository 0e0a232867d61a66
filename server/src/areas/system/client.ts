import { randomBytes } from 'node:crypto';
import { msg } from '@console/contract';
import { CLIENT_GRANT_TYPES, CLIENT_ID_PATTERN, clientResource } from '@console/contract/areas/system/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sha256Hex } from '../../core/auth/index.js';
import type { AppContext } from '../../core/context.js';
import { schema } from '../../core/db/index.js';
import { badRequest, fieldError, notFound } from '../../core/errors.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';

/** Every instance drops its cached client verifications when a client changes (kv broadcast). */
const CHANNEL = 'clients-changed';

/** The local cache of each server's client verifier, reachable from the hooks (which get only the context). */
const localClear = new WeakMap<AppContext, () => void>();

async function clientsChanged(ctx: AppContext): Promise<void> {
  localClear.get(ctx)?.();
  await ctx.kv.publish(CHANNEL, String(Date.now()));
}

/** A strong random secret (256 bits), shown once; only its sha-256 is stored (access.ts verifies it). */
export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * OAuth clients: the id must travel in Basic auth, the grant types are the known ones, the secret is the
 * server's to generate (answered once), and the client the caller is signed in with cannot be removed or
 * renamed (the console would lock itself out).
 */
export function clientHooks(ctx: AppContext): ResourceHooks {
  return {
    revealed: { clientSecret: z.string() },
    async beforeSave(_tx, values, s) {
      if (values.clientId !== undefined && !CLIENT_ID_PATTERN.test(String(values.clientId))) throw fieldError('clientIdFormat', s.lang, 'clientId');
      if (values.authorizedGrantTypes !== undefined && values.authorizedGrantTypes !== null) {
        const types = [...new Set(String(values.authorizedGrantTypes).split(',').map((v) => v.trim()).filter(Boolean))];
        if (types.length === 0 || types.some((v) => !(CLIENT_GRANT_TYPES as readonly string[]).includes(v))) {
          throw fieldError('clientGrantTypes', s.lang, 'authorizedGrantTypes', { allowed: CLIENT_GRANT_TYPES.join(', ') });
        }
        values.authorizedGrantTypes = types.join(',');
      }
      if (s.mode === 'create') {
        const secret = newClientSecret();
        values.clientSecret = sha256Hex(secret);
        s.reveal({ clientSecret: secret });
      } else if (s.stored && s.stored.clientId === s.user.clientId && values.clientId !== undefined && values.clientId !== s.stored.clientId) {
        throw fieldError('clientInUse', s.lang, 'clientId', { clientId: String(s.stored.clientId) });
      }
      s.afterCommit(() => clientsChanged(ctx));
    },
    async beforeRemove(_tx, rows, r) {
      const own = rows.find((row) => row.clientId === r.user.clientId);
      if (own) throw badRequest('clientInUse', { clientId: String(own.clientId) }, { ids: msg('clientInUse', r.lang, { clientId: String(own.clientId) }) });
      r.afterCommit(() => clientsChanged(ctx));
    },
  };
}

export function registerClientRoutes(app: FastifyInstance, ctx: AppContext): void {
  localClear.set(ctx, () => app.clients.clear());
  void ctx.kv.subscribe(CHANNEL, () => app.clients.clear(), () => app.clients.clear());

  // a new secret, answered once; the old one stops working at once on every instance
  mountAction(app, ctx, clientResource.actions.resetSecret, async ({ id }, { tx, user, lang, afterCommit }) => {
    const [row] = await tx.select().from(schema.client).where(and(eq(schema.client.id, id), eq(schema.client.isDeleted, 0)));
    if (!row) throw notFound();
    if (row.clientId === user.clientId) throw fieldError('clientSecretInUse', lang, 'id', { clientId: row.clientId });
    const secret = newClientSecret();
    await tx.update(schema.client).set({ clientSecret: sha256Hex(secret), updateUser: user.userId, updateTime: new Date() })
      .where(eq(schema.client.id, id));
    afterCommit(() => clientsChanged(ctx));
    return { id: row.id, clientId: row.clientId, clientSecret: secret };
  }, { labels: { id: { zh: '编号', en: 'id' } } });
}

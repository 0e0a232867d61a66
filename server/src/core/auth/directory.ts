import { and, eq, inArray } from 'drizzle-orm';
import { type Db, inTenant, schema } from '../db/index.js';
import type { Kv } from '../kv.js';
import { isId, splitList } from '../ids.js';

const CHANNEL = 'users-changed';

/** What a signed-in user holds now (tokens carry what they held at sign-in). */
export interface CurrentUser {
  roleIds: string[];
  /** alias of each live role held, by id */
  aliases: ReadonlyMap<string, string>;
  deptIds: string[];
  /** 1 normal, 2 disabled, 3 awaiting approval; 0 when deleted */
  status: number;
  /** the password is an initial or reset one, to be changed before anything else is saved */
  passwordReset: boolean;
}

/**
 * The current roles, departments and status of users, so that a change to a user (roles granted, disabled,
 * deleted) takes effect at their next request on every instance, without signing in again. Cached per
 * user; a change calls invalidate(), which clears the entry on every instance.
 */
export class UserDirectory {
  private readonly cache = new Map<string, Promise<CurrentUser>>();

  constructor(private readonly db: Db, private readonly kv: Kv) {}

  async start(): Promise<void> {
    await this.kv.subscribe(CHANNEL, (message) => {
      if (message === '*') this.cache.clear();
      else for (const key of message.split(',')) this.cache.delete(key);
    }, () => this.cache.clear());
  }

  current(tenantId: string, userId: string): Promise<CurrentUser> {
    const key = `${tenantId}:${userId}`;
    let hit = this.cache.get(key);
    if (!hit) {
      if (this.cache.size > 50_000) this.cache.clear();
      hit = this.load(tenantId, userId);
      hit.catch(() => this.cache.delete(key));
      this.cache.set(key, hit);
    }
    return hit;
  }

  private async load(tenantId: string, userId: string): Promise<CurrentUser> {
    return inTenant(this.db, { tenantId }, async (tx) => {
      const [row] = await tx
        .select({ roleId: schema.user.roleId, deptId: schema.user.deptId, status: schema.user.status, passwordReset: schema.user.passwordReset })
        .from(schema.user)
        .where(and(eq(schema.user.id, userId), eq(schema.user.tenantId, tenantId), eq(schema.user.isDeleted, 0)));
      if (!row) return { roleIds: [], aliases: new Map(), deptIds: [], status: 0, passwordReset: false };
      const held = splitList(row.roleId).filter(isId);
      const roles = held.length
        ? await tx.select({ id: schema.role.id, alias: schema.role.roleAlias }).from(schema.role)
          .where(and(inArray(schema.role.id, held), eq(schema.role.tenantId, tenantId), eq(schema.role.isDeleted, 0)))
        : [];
      return {
        roleIds: roles.map((r) => r.id), aliases: new Map(roles.map((r) => [r.id, r.alias])), deptIds: splitList(row.deptId), status: row.status,
        passwordReset: row.passwordReset === 1,
      };
    });
  }

  /** Forgets users (every user of the tenant when none are named) on every instance, after their change committed. */
  async invalidate(tenantId: string, userIds?: readonly string[]): Promise<void> {
    const message = userIds ? userIds.map((id) => `${tenantId}:${id}`).join(',') : '*';
    if (!userIds) this.cache.clear();
    else for (const key of message.split(',')) this.cache.delete(key);
    await this.kv.publish(CHANNEL, message);
  }
}

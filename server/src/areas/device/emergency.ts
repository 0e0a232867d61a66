import { emergencyUnlockResource } from '@console/contract/areas/device/index';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext, AuthUser } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { schema } from '../../core/db/index.js';
import { AppError, fieldError, forbidden, notFound } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { mountAction } from '../../core/resource/actions.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import { secretBox } from '../../core/secrets.js';
import { formatDateTime } from '../../core/time.js';
import { bySnColumn, deviceUnlockSecret, ownsDevice } from '../production/index.js';
import { issueCode, KIND_HOURS } from './emergencyCode.js';
import { emergencyCode, emergencyUnlock } from './tables.js';

const HOUR_MS = 3_600_000;
const SERVER_FIELDS = ['validTo', 'state', 'approver', 'approverName', 'approvalTime', 'comment'] as const;

const windowEnd = (from: Date, kind: number, count: number) => {
  const start = Math.floor(from.getTime() / HOUR_MS);
  // n codes take successive windows: the last starts count − 1 hours (one-time) or windows later
  const hours = KIND_HOURS[kind] ?? 0;
  const lastStart = start + (kind === 1 ? count - 1 : (count - 1) * hours);
  return new Date((lastStart + hours) * HOUR_MS);
};

export const emergencyUnlockHooks = (): ResourceHooks => ({
  // a tenant's requests are those for the locks it owns now
  scope: bySnColumn(emergencyUnlock.deviceSn),
  async beforeSave(tx, values, c) {
    for (const name of SERVER_FIELDS) delete values[name];
    if (c.mode === 'update' && c.stored?.state !== 'pending') throw new AppError(400, 'emergencyNotPending');
    const sn = String(values.deviceSn ?? c.stored?.deviceSn ?? '');
    if (values.deviceSn !== undefined && !(await ownsDevice(tx, c.user, sn))) throw fieldError('deviceUnknown', c.lang, 'deviceSn', { sn });
    const from = values.validFrom instanceof Date ? values.validFrom : c.stored?.validFrom instanceof Date ? c.stored.validFrom : undefined;
    const kind = Number(values.codeKind ?? c.stored?.codeKind);
    const count = Number(values.codeCount ?? c.stored?.codeCount ?? 1);
    if (from && KIND_HOURS[kind]) values.validTo = windowEnd(from, kind, count);
    if (c.mode === 'create') values.state = 'pending';
  },
  async beforeRemove(_tx, rows) {
    const issued = rows.find((r) => r.state === 'issued');
    if (issued) throw new AppError(400, 'emergencyIssuedRemove', { sn: String(issued.deviceSn) });
  },
});

async function request(tx: Executor, id: string) {
  const [row] = await tx.select().from(emergencyUnlock).where(and(eq(emergencyUnlock.id, id), eq(emergencyUnlock.isDeleted, 0)));
  if (!row) throw notFound();
  return row;
}

export function registerEmergencyActions(app: FastifyInstance, ctx: AppContext): void {
  const box = secretBox(ctx.config.encryptionKey);
  const decide = (approve: boolean) => async ({ id, comment }: { id: string; comment?: string }, { tx, user }: { tx: Executor; user: AuthUser }) => {
    const row = await request(tx, id);
    if (row.state !== 'pending') throw new AppError(400, 'emergencyNotPending');
    if (!(await ownsDevice(tx, user, row.deviceSn))) throw new AppError(400, 'deviceUnknown', { sn: row.deviceSn });
    // the second pair of eyes: whoever asked for the codes never approves them
    if (row.createUser === user.userId) throw forbidden('emergencyOwnRequest');
    const [me] = await tx.select({ name: schema.user.realName }).from(schema.user).where(eq(schema.user.id, user.userId));
    await tx.update(emergencyUnlock).set({
      state: approve ? 'approved' : 'rejected', approver: user.userId, approverName: me?.name ?? user.account, approvalTime: new Date(),
      comment: comment || null, updateUser: user.userId, updateTime: new Date(),
    }).where(eq(emergencyUnlock.id, id));
    return true;
  };
  mountAction(app, ctx, emergencyUnlockResource.actions.approve, (input, c) => decide(true)(input, c));
  mountAction(app, ctx, emergencyUnlockResource.actions.reject, (input, c) => decide(false)(input, c));

  mountAction(app, ctx, emergencyUnlockResource.actions.generate, async ({ id }, { tx, user }) => {
    // one generation at a time per request: a double click issues the codes once
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`emergency-generate:${id}`}))`);
    const row = await request(tx, id);
    if (row.state !== 'approved') throw new AppError(400, row.state === 'issued' ? 'emergencyIssued' : 'emergencyNotApproved');
    if (!(await ownsDevice(tx, user, row.deviceSn))) throw new AppError(400, 'deviceUnknown', { sn: row.deviceSn });
    const secret = deviceUnlockSecret(ctx.config.encryptionKey, row.deviceSn);
    const hours = KIND_HOURS[row.codeKind]!;
    const start = Math.floor(row.validFrom.getTime() / HOUR_MS);
    const [me] = await tx.select({ name: schema.user.realName }).from(schema.user).where(eq(schema.user.id, user.userId));
    const issued = Array.from({ length: row.codeCount }, (_, i) => {
      const from = new Date((start + (row.codeKind === 1 ? i : i * hours)) * HOUR_MS);
      return { id: nextId(), ...issueCode(secret, row.codeKind, from) };
    });
    await tx.insert(emergencyCode).values(issued.map((c) => ({
      id: c.id, tenantId: user.tenantId, unlockId: id, deviceSn: row.deviceSn, code: box.seal(c.code), kind: row.codeKind,
      validFrom: c.validFrom, validTo: c.validTo, issuerName: me?.name ?? user.account, createUser: user.userId,
    })));
    await tx.update(emergencyUnlock).set({ state: 'issued', updateUser: user.userId, updateTime: new Date() }).where(eq(emergencyUnlock.id, id));
    return issued.map((c) => ({ id: c.id, code: c.code, kind: row.codeKind, validFrom: formatDateTime(c.validFrom) ?? '', validTo: formatDateTime(c.validTo) ?? '' }));
  });
}

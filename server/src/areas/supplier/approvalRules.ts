import { APPROVAL_PENDING } from '@console/contract/areas/supplier/index';
import type { AuthUser } from '../../core/context.js';
import { AppError, forbidden } from '../../core/errors.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import type { SaveContext } from '../../core/resource/hooks.js';
import { operatorOf } from './placement.js';

/** What the server alone writes on a request: its decision. */
const DECISION_FIELDS = ['status', 'approver', 'approverName', 'approvalTime', 'comment'] as const;

/** A request's save: the decision is not the requester's to send; a decided request is no longer changed. */
export function guardRequestSave(values: Record<string, unknown>, c: SaveContext): void {
  for (const name of DECISION_FIELDS) delete values[name];
  if (c.mode === 'update' && Number(c.stored?.status) !== APPROVAL_PENDING) throw new AppError(400, 'approvalDecided');
  if (c.mode === 'create') values.status = APPROVAL_PENDING;
}

/** A decided request stays on record. */
export const guardRequestRemove: NonNullable<ResourceHooks['beforeRemove']> = async (_tx, rows) => {
  if (rows.some((r) => Number(r.status) !== APPROVAL_PENDING)) throw new AppError(400, 'approvalDecided');
};

/** The second pair of eyes: a pending request, decided by someone other than who asked. */
export function checkDecidable(row: { status: number; createUser: string | null }, user: AuthUser): void {
  if (row.status !== APPROVAL_PENDING) throw new AppError(400, 'approvalDecided');
  if (row.createUser === user.userId) throw forbidden('approvalOwnRequest');
}

/** What a decision writes on the request it decides. */
export const decision = (user: AuthUser, status: number, comment: string | undefined) => ({
  status, approver: user.userId, approverName: operatorOf(user), approvalTime: new Date(), comment: comment || null,
  updateUser: user.userId, updateTime: new Date(),
});

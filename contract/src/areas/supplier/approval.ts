import { z } from 'zod';
import { okOutput } from '../../action.js';
import { idInput } from '../../ids.js';
import type { ButtonDef, Fields, RowCondition } from '../../resourceDef.js';

/** An approval's states (dict `area_oa_status`): 0 pending, 1 approved, 2 rejected. */
export const APPROVAL_PENDING = 0;
export const APPROVAL_APPROVED = 1;
export const APPROVAL_REJECTED = 2;

/** The fields an approval adds to what it asks for (domain.md, "Area approval"). */
export const approvalFields = {
  status: { type: 'int', label: { zh: '审批状态', en: 'Status' }, dict: 'area_oa_status', form: false, search: 'equal', key: true, width: 90 },
  approverName: { type: 'string', label: { zh: '审批人', en: 'Approver' }, max: 64, form: false, width: 100 },
  approvalTime: { type: 'datetime', label: { zh: '审批时间', en: 'Decided at' }, form: false },
  comment: { type: 'string', label: { zh: '审批意见', en: 'Comment' }, max: 255, form: false, width: 160 },
} as const satisfies Fields;

/** A decided request is no longer changed: edit and delete only while pending. */
export const pendingOnly: { edit: RowCondition; delete: RowCondition } = {
  edit: { field: 'status', values: [APPROVAL_PENDING] },
  delete: { field: 'status', values: [APPROVAL_PENDING] },
};

/** `process` (id, status, comment): approve (1) or reject (2) a pending request; never one's own. */
export const processAction = (title: { zh: string; en: string }, permission: string) => ({
  method: 'POST' as const, permission, title,
  input: z.object({
    id: idInput,
    status: z.coerce.number().int().refine((s) => s === APPROVAL_APPROVED || s === APPROVAL_REJECTED),
    comment: z.string().trim().max(255).optional(),
  }),
  output: okOutput,
});

/** The row button that decides a pending request through `process`. */
export const processButton = (code: string): ButtonDef => ({
  code, name: { zh: '审批', en: 'Decide' }, alias: 'process', placement: 'row', action: 'process',
  shownWhen: { field: 'status', values: [APPROVAL_PENDING] },
  decide: { field: 'status', approve: APPROVAL_APPROVED, reject: APPROVAL_REJECTED, comment: 'comment' },
});

import { type DictItem, dictKeyOf } from '@console/contract';

/**
 * BladeX's "flow routes": the `flow` dictionary's item of a process category names, in its `remark`, the business
 * form that starts, handles and shows the processes of that category (`leave` → /work/process/leave/…). Only
 * the forms this console has are followed; any other category is worked on with the generic dialogs.
 */
export const BUSINESS_FORMS = ['leave'] as const;
export type BusinessForm = (typeof BUSINESS_FORMS)[number];

const isBusinessForm = (v: string): v is BusinessForm => (BUSINESS_FORMS as readonly string[]).includes(v);

/**
 * The business form of a category (`flow_1` as the server keeps it, the key of BladeX's flow routes `<code>_<dictKey>`;
 * a bare dictKey `1` too), or null: none, or one this console lacks.
 */
export function businessFormOf(flowDict: readonly DictItem[], category: string | null | undefined): BusinessForm | null {
  if (category === null || category === undefined || category === '') return null;
  const key = dictKeyOf({ dict: 'flow', dictPrefixed: true }, category);
  const remark = flowDict.find((item) => item.dictKey === key)?.remark.trim() ?? '';
  return isBusinessForm(remark) ? remark : null;
}

const seg = encodeURIComponent;

/** Where a process of the form is started. */
export const formPath = (form: BusinessForm, processDefinitionId: string) => `/work/process/${form}/form/${seg(processDefinitionId)}`;

/** Where a task of the form is handled. */
export const handlePath = (form: BusinessForm, taskId: string, processInstanceId: string, businessId: string) =>
  `/work/process/${form}/handle/${seg(taskId)}/${seg(processInstanceId)}/${seg(businessId)}`;

/** Where a process of the form is shown. */
export const detailPath = (form: BusinessForm, processInstanceId: string, businessId: string) =>
  `/work/process/${form}/detail/${seg(processInstanceId)}/${seg(businessId)}`;

/** What a work list row offers to open: its business form's page when it has one and the ids it needs, else nothing. */
export interface RowRoute {
  category?: string | null;
  businessKey?: string | null;
}

/** The handle page of a task row (null: the generic dialog). */
export function taskHandlePath(flowDict: readonly DictItem[], row: RowRoute & { id: string; instanceId?: string | null }): string | null {
  const form = businessFormOf(flowDict, row.category);
  return form && row.instanceId && row.businessKey ? handlePath(form, row.id, row.instanceId, row.businessKey) : null;
}

/** The detail page of an instance (null: the diagram alone). */
export function instanceDetailPath(flowDict: readonly DictItem[], row: RowRoute, processInstanceId: string | null | undefined): string | null {
  const form = businessFormOf(flowDict, row.category);
  return form && processInstanceId && row.businessKey ? detailPath(form, processInstanceId, row.businessKey) : null;
}

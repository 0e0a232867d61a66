import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, md5 } from '../api.js';
import { ARTIFACTS, useBrowser } from '../browser.js';
import { signIn, signOutLocally, toast, waitFor, clickRowAction } from '../flows.js';

/**
 * The workflow in the browser, in the demo tenant: the leave model deployed again through 流程管理 (a new version), a
 * leave of 2 days started from 发起事务 with another user as its approver, approved by that user from 待办事务 with a
 * comment, and the path it took on the diagram (the approver's step done, the short-leave flow taken, HR's step
 * never reached); the applicant then sees it completed under 已发事务. A rejected request comes back to its
 * applicant, who withdraws it.
 */
const b = useBrowser();
const TENANT = '541742';
const SYS = '/api/blade-system';
const LEAVE_XML = readFileSync(new URL('../../server/src/areas/flow/leave.bpmn20.xml', import.meta.url));
const APPROVER = { account: 'e2e_wf_manager', realName: 'E2E王经理', password: 'Second-pass-2' };
const REASON = 'E2E 家中有事';
const WORK_MENUS = ['work', 'work_start', 'work_claim', 'work_todo', 'work_send', 'work_done'];
/** a process without a business form (category 2, 通用审批): its approver is a variable given when it starts */
const GENERIC_XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" id="E2eGenericDefs" targetNamespace="http://www.flowable.org/processdef">
  <process id="E2eGeneric" name="E2E 通用审批" isExecutable="true">
    <startEvent id="start" />
    <sequenceFlow id="toApprove" sourceRef="start" targetRef="approve" />
    <userTask id="approve" name="审批" flowable:assignee="\${approver}" />
    <sequenceFlow id="toEnd" sourceRef="approve" targetRef="end" />
    <endEvent id="end" />
  </process>
</definitions>`;
/** the leave request's business id, once started */
let businessId = '';
/** the demo tenant's administrator (the applicant) */
let admin = '';
let approverId = '';
const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `workflow-${name}.png`) });

async function call<T>(path: string, json?: unknown, token = admin): Promise<T> {
  const res = await api<T>(b.baseUrl, token, path, json === undefined ? {} : { method: 'POST', json });
  if (!res.success) throw new Error(`${path}: ${res.msg}`);
  return res.data;
}

interface MenuRow { id: string; code: string; children?: MenuRow[] }

/** Menu ids by code: the menus are the platform's (its administrator lists them), granted by each tenant to its roles. */
async function menuIds(codes: string[]): Promise<string[]> {
  const platform = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
  const flat = (rows: MenuRow[]): MenuRow[] => rows.flatMap((r) => [r, ...flat(r.children ?? [])]);
  const all = flat(await call<MenuRow[]>(`${SYS}/menu/list`, undefined, platform));
  return codes.map((c) => {
    const row = all.find((m) => m.code === c);
    if (!row) throw new Error(`no menu ${c}`);
    return row.id;
  });
}

/** The leave's version on 发起事务 (the newest active one of each process). */
async function startableLeave(): Promise<{ id: string; version: number }> {
  const list = await call<{ records: Array<{ id: string; processKey: string; version: number }> }>('/api/blade-flow/work/start-list');
  const leave = list.records.find((r) => r.processKey === 'Leave');
  if (!leave) throw new Error('the leave process is not startable');
  return leave;
}

/** The rows of the list on screen (the pages of other tabs stay in the document, hidden). */
function tableRows(page: Page) {
  return page.locator('[data-testid="kept-page"]:visible [data-testid="resource-table"] tbody tr.ant-table-row');
}

/** Picks a date and time on the open side of a RangePicker by typing it, then confirms that side. */
async function typeRangeSide(page: Page, side: 0 | 1, value: string): Promise<void> {
  const input = page.locator('.ant-picker-range', { has: page.locator('#leave_range') }).locator('input').nth(side);
  await input.click();
  await input.fill(value);
  await page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-ok button').click();
}

beforeAll(async () => {
  admin = (await apiToken(b.baseUrl, TENANT, 'admin', 'admin'))!;
  const role = await call<{ id: string }>(`${SYS}/role/submit`, { roleName: 'E2E部门经理', roleAlias: 'e2e_wf_manager', sort: 41 });
  await call(`${SYS}/role/grant`, { roleIds: role.id, menuIds: (await menuIds(WORK_MENUS)).join(',') });
  const depts = await call<Array<{ id: string }>>(`${SYS}/dept/tree`);
  approverId = (await call<{ id: string }>(`${SYS}/user/submit`, {
    account: APPROVER.account, name: APPROVER.realName, realName: APPROVER.realName, deptId: depts[0]!.id, roleId: role.id, password: md5('First-pass-1'),
  })).id;
  const first = (await apiToken(b.baseUrl, TENANT, APPROVER.account, 'First-pass-1'))!;
  await call(`${SYS}/user/update-password`, { oldPassword: md5('First-pass-1'), newPassword: md5(APPROVER.password), newPassword1: md5(APPROVER.password) }, first);
  await signIn(b.page, b.baseUrl, TENANT);
});

describe('the leave workflow', () => {
  it('deploys the leave model again through 流程管理\'s 部署上传', async () => {
    const before = await startableLeave();
    await b.page.goto(`${b.baseUrl}/flow/manager`);
    await b.page.getByTestId('manager-upload').click();
    const dialog = b.page.locator('.ant-modal', { has: b.page.getByTestId('manager-upload-form-submit') });
    await dialog.locator('input[type=file]').setInputFiles({ name: 'leave.bpmn20.xml', mimeType: 'text/xml', buffer: LEAVE_XML });
    await dialog.locator('#manager-upload-form_category').click({ force: true });
    await b.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: '请假流程' }).click();
    await b.page.getByTestId('manager-upload-form-submit').click();
    const deployed = b.page.getByTestId('flow-deployed');
    await deployed.waitFor();
    expect(await deployed.innerText()).toContain(`请假流程 (版本 ${before.version + 1})`);
    await b.page.getByTestId('confirm-ok').click();
    await deployed.waitFor({ state: 'hidden' });
    const now = await startableLeave();
    expect(now.version).toBe(before.version + 1);
    await waitFor(b.page, 'the new version listed', async () => (await tableRows(b.page).filter({ hasText: '请假流程' }).allInnerTexts()).some((r) => r.includes(String(now.version))));
  });

  it('starts a 2-day leave from 发起事务 with the other user as approver', async () => {
    const leave = await startableLeave();
    await b.page.goto(`${b.baseUrl}/work/start`);
    const row = tableRows(b.page).filter({ hasText: '请假流程' });
    // the category's dictionary item names the business form: wait for it to be in
    await waitFor(b.page, 'the leave process listed with its category', async () => ((await row.innerText()).match(/请假流程/g)?.length ?? 0) >= 2);
    await clickRowAction(row, 'work-row-start');
    await b.page.waitForURL(`**/work/process/leave/form/${leave.id}`);
    await b.page.getByTestId('leave-form-page').waitFor();
    await waitFor(b.page, 'the tab named 请假申请', async () => (await b.page.locator('[data-testid="tab"][data-active="true"]').innerText()).includes('请假申请'));

    // the form asks for what is missing
    await b.page.getByTestId('leave-submit').click();
    await b.page.getByText('请选择请假的开始与结束时间').waitFor();

    await typeRangeSide(b.page, 0, '2030-01-07 09:00:00');
    await typeRangeSide(b.page, 1, '2030-01-08 18:00:00');
    await waitFor(b.page, 'the days counted from the period', async () => (await b.page.getByTestId('leave-days').inputValue()) === '2');
    await b.page.locator('#leave_taskUser').click({ force: true });
    await b.page.locator('#leave_taskUser').fill('王经理');
    await b.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: APPROVER.realName }).click();
    // the applicant is not among the approvers
    await b.page.locator('#leave_taskUser').click({ force: true });
    await b.page.locator('#leave_taskUser').fill('admin');
    await b.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-empty').waitFor();
    await b.page.keyboard.press('Escape');
    await b.page.getByTestId('leave-reason').fill(REASON);
    await shot(b.page, 'leave-form');
    await b.page.getByTestId('leave-submit').click();
    await toast(b.page, '请假申请已提交');
    await b.page.waitForURL('**/work/send');
    // the form's tab closed with it
    expect(await b.page.locator('[data-testid="tab"]', { hasText: '请假申请' }).count()).toBe(0);
    // the newest running leave (an earlier file's deleted instance of the same process may be listed too)
    const sent = tableRows(b.page).filter({ hasText: '请假流程' }).filter({ hasText: '运行中' }).first();
    await waitFor(b.page, 'the running instance under 已发事务', async () => (await sent.count()) > 0);
    businessId = (await sent.innerText()).match(/\b\d{15,19}\b/)?.[0] ?? '';
    expect(businessId).not.toBe('');
  });

  it('is approved by the approver from 待办事务 with a comment', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl, TENANT, APPROVER.account, APPROVER.password);
    await b.page.goto(`${b.baseUrl}/work/todo`);
    const row = tableRows(b.page).filter({ hasText: businessId });
    await row.waitFor();
    expect(await row.innerText()).toContain('审批人审批');
    await clickRowAction(row, 'work-row-handle');
    await b.page.waitForURL(`**/work/process/leave/handle/*/*/${businessId}`);
    await waitFor(b.page, 'the tab named 请假审批', async () => (await b.page.locator('[data-testid="tab"][data-active="true"]').innerText()).includes('请假审批'));
    const summary = b.page.getByTestId('leave-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toContain(REASON);
    expect(await summary.getByTestId('leave-summary-days').innerText()).toBe('2 天');
    expect(await b.page.getByTestId('leave-decision').getAttribute('data-step')).toBe('managerApproval');
    // an approval step: 同意 / 驳回, not the applicant's 重新提交 / 撤销
    expect(await b.page.getByTestId('leave-resubmit').count()).toBe(0);
    await b.page.getByTestId('leave-comment').fill('同意, 注意交接');
    await shot(b.page, 'leave-handle');
    await b.page.getByTestId('leave-pass').click();
    await toast(b.page, '已同意');
    await b.page.waitForURL('**/work/todo');
    await waitFor(b.page, 'the task gone from 待办事务', async () => (await tableRows(b.page).filter({ hasText: businessId }).count()) === 0);
  });

  it('shows the path taken on the diagram from 办结事务, and the request completed', async () => {
    await b.page.goto(`${b.baseUrl}/work/done`);
    const row = tableRows(b.page).filter({ hasText: businessId });
    await row.waitFor();
    expect(await row.innerText()).toContain('同意, 注意交接');
    await clickRowAction(row, 'work-row-chart');
    const chart = b.page.getByTestId('flow-chart');
    await waitFor(b.page, 'the diagram drawn', async () => (await chart.getByTestId('flow-chart-canvas').getAttribute('data-state')) === 'ready');
    const classOf = (id: string) => chart.locator(`g.djs-element[data-element-id="${id}"]`).first().getAttribute('class');
    expect(await classOf('managerApproval')).toContain('flow-done');
    expect(await classOf('flowShortLeave')).toContain('flow-taken');
    expect(await classOf('hrApproval')).not.toMatch(/flow-(done|running|taken)/);
    expect(await classOf('flowLongLeave')).not.toContain('flow-taken');
    await shot(b.page, 'leave-chart');
    await b.page.keyboard.press('Escape');
    await chart.waitFor({ state: 'hidden' });

    await clickRowAction(row, 'work-row-detail');
    await b.page.waitForURL(`**/work/process/leave/detail/*/${businessId}`);
    await waitFor(b.page, 'the tab named 请假详情', async () => (await b.page.locator('[data-testid="tab"][data-active="true"]').innerText()).includes('请假详情'));
    await waitFor(b.page, 'the request completed', async () => (await b.page.getByTestId('leave-summary-status').innerText()) === '已完成');
    const steps = b.page.getByTestId('flow-timeline-item');
    await waitFor(b.page, 'the history', async () => (await steps.count()) === 3);
    const approval = b.page.locator('[data-testid="flow-timeline-item"][data-element-id="managerApproval"]');
    expect(await approval.getAttribute('data-outcome')).toBe('pass');
    expect(await approval.innerText()).toContain(APPROVER.realName);
    expect(await approval.innerText()).toContain('同意, 注意交接');
    await shot(b.page, 'leave-detail');
  });

  it('shows the applicant the instance completed under 已发事务', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl, TENANT);
    await b.page.goto(`${b.baseUrl}/work/send`);
    const row = tableRows(b.page).filter({ hasText: businessId });
    await waitFor(b.page, 'the instance completed', async () => (await row.innerText()).includes('已完成'));
    const leave = await call<{ approvalComment: string | null; processStatus: string | null }>(`/api/blade-desk/process/leave/detail?businessId=${businessId}`);
    expect(leave).toMatchObject({ approvalComment: '同意, 注意交接', processStatus: 'completed' });
  });

  it('gives a rejected request back to the applicant, who withdraws it', async () => {
    const leave = await startableLeave();
    const started = await call<{ businessId: string; processInstanceId: string }>('/api/blade-desk/process/leave/start-process', {
      processDefinitionId: leave.id, startTime: '2030-02-04 09:00:00', endTime: '2030-02-04 18:00:00', days: 1, reason: 'E2E 撤销测试', taskUser: approverId,
    });
    const approver = (await apiToken(b.baseUrl, TENANT, APPROVER.account, APPROVER.password))!;
    const todo = await call<{ records: Array<{ id: string; businessKey: string }> }>('/api/blade-flow/work/todo-list?size=50', undefined, approver);
    const task = todo.records.find((r) => r.businessKey === started.businessId)!;
    await call('/api/blade-flow/work/complete-task', { taskId: task.id, processInstanceId: started.processInstanceId, flag: 'reject', comment: '请补充交接人' }, approver);

    await b.page.goto(`${b.baseUrl}/work/todo`);
    const row = tableRows(b.page).filter({ hasText: started.businessId });
    await row.waitFor();
    expect(await row.innerText()).toContain('调整申请');
    await clickRowAction(row, 'work-row-handle');
    await b.page.waitForURL(`**/work/process/leave/handle/*/${started.processInstanceId}/${started.businessId}`);
    // the applicant's own step: 重新提交 / 撤销, with the approver's comment on the request
    await waitFor(b.page, 'the adjust step', async () => (await b.page.getByTestId('leave-decision').getAttribute('data-step')) === 'adjust');
    expect(await b.page.getByTestId('leave-pass').count()).toBe(0);
    expect(await b.page.getByTestId('leave-summary').innerText()).toContain('请补充交接人');
    await b.page.getByTestId('leave-withdraw').click();
    await toast(b.page, '申请已撤销');
    await b.page.waitForURL('**/work/todo');

    await b.page.goto(`${b.baseUrl}/work/process/leave/detail/${started.processInstanceId}/${started.businessId}`);
    await b.page.locator('[data-testid="flow-timeline-item"][data-element-id="withdrawn"]').waitFor();
    const rejected = b.page.locator('[data-testid="flow-timeline-item"][data-element-id="managerApproval"]');
    expect(await rejected.getAttribute('data-outcome')).toBe('reject');
  });

  it('starts and handles a process without a business form through the generic dialogs', async () => {
    const form = new FormData();
    form.append('category', '2');
    form.append('files', new Blob([GENERIC_XML], { type: 'text/xml' }), 'e2e-generic.bpmn');
    const res = await fetch(`${b.baseUrl}/api/blade-flow/manager/deploy-upload`, {
      method: 'POST', body: form, headers: { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'blade-auth': `bearer ${admin}` },
    });
    expect(((await res.json()) as { success: boolean }).success).toBe(true);

    await b.page.goto(`${b.baseUrl}/work/start`);
    const row = tableRows(b.page).filter({ hasText: 'E2E 通用审批' });
    await waitFor(b.page, 'the process listed with its category', async () => ((await row.innerText()).match(/通用审批/g)?.length ?? 0) >= 2);
    await clickRowAction(row, 'work-row-start');
    await b.page.getByTestId('work-start-submit').waitFor();
    await b.page.locator('#work-start_businessKey').fill('E2E-GEN-1');
    await b.page.getByTestId('work-start-add-variable').click();
    const variable = b.page.locator('.ant-modal .ant-pro-form-list-item').first();
    await variable.locator('input').nth(0).fill('approver');
    await variable.locator('input').nth(1).fill(approverId);
    await b.page.getByTestId('work-start-submit').click();
    await toast(b.page, '流程已发起');
    await b.page.waitForURL('**/work/send');
    await waitFor(b.page, 'the instance running', async () => (await tableRows(b.page).filter({ hasText: 'E2E-GEN-1' }).innerText()).includes('运行中'));

    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl, TENANT, APPROVER.account, APPROVER.password);
    await b.page.goto(`${b.baseUrl}/work/todo`);
    const task = tableRows(b.page).filter({ hasText: 'E2E-GEN-1' });
    await clickRowAction(task, 'work-row-handle');
    await b.page.getByTestId('work-complete-submit').waitFor();
    await b.page.locator('.ant-modal label.ant-radio-button-wrapper', { hasText: '驳回' }).click();
    await b.page.locator('#work-complete_comment').fill('不符合规定');
    await b.page.getByTestId('work-complete-submit').click();
    await toast(b.page, '任务已办理');
    await waitFor(b.page, 'the task gone', async () => (await tableRows(b.page).filter({ hasText: 'E2E-GEN-1' }).count()) === 0);
    const done = await call<{ records: Array<{ businessKey: string; outcome: string; comment: string }> }>('/api/blade-flow/work/done-list?businessKey=E2E-GEN-1', undefined,
      (await apiToken(b.baseUrl, TENANT, APPROVER.account, APPROVER.password))!);
    expect(done.records[0]).toMatchObject({ outcome: 'reject', comment: '不符合规定' });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiToken, md5 } from '../api.js';
import { useBrowser } from '../browser.js';
import { confirm, signIn, signOutLocally, tableRows, toast, waitFor, clickRowAction } from '../flows.js';

/**
 * The workflow's administration screens in the browser, in the demo tenant: a model drawn in the bpmn.io modeler
 * (a user task with its assignee from the properties panel, saved; an imported diagram of another process key
 * refused with the server's message, the drawing kept, then fixed and saved) and deployed; BPMN files uploaded
 * (a broken one refused naming the file); a running leave shown on the diagram (done, running and taken markers,
 * the step's assignee and comment on hover, the history below) and deleted with a reason; a deployment suspended,
 * activated and deleted.
 */
const b = useBrowser();
const TENANT = '541742';
const MODEL = { modelKey: 'E2eExpense', name: 'E2E 报销审批', category: '2' };
const APPROVER = { account: 'e2e_fa_approver', realName: 'E2E赵审批', first: 'First-pass-1', password: 'Second-pass-2' };
let admin = '';

async function call<T>(path: string, json?: unknown, token = admin): Promise<T> {
  const res = await api<T>(b.baseUrl, token, path, json === undefined ? {} : { method: 'POST', json });
  if (!res.success) throw new Error(`${path}: ${res.msg}`);
  return res.data;
}

/** A one-step process keyed `key` (the user task assigned to `${taskUser}`), drawn. */
function processXml(key: string, name: string, broken = false): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:flowable="http://flowable.org/bpmn"
  id="d_${key}" targetNamespace="http://www.flowable.org/processdef">
  <process id="${key}" name="${name}" isExecutable="true">
    <startEvent id="start" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="${broken ? 'nowhere' : 'approve'}" />
    <userTask id="approve" name="审批" flowable:assignee="\${taskUser}" />
    <sequenceFlow id="f2" sourceRef="approve" targetRef="end" />
    <endEvent id="end" />
  </process>
  <bpmndi:BPMNDiagram id="dia_${key}">
    <bpmndi:BPMNPlane id="plane_${key}" bpmnElement="${key}">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="100" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="approve_di" bpmnElement="approve"><dc:Bounds x="200" y="78" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="360" y="100" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="136" y="118" /><di:waypoint x="200" y="118" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="300" y="118" /><di:waypoint x="360" y="118" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>`;
}

/** `processXml` with a timer on the task (to an end of its own), for the panel's timer and condition fields */
function withTimer(xml: string): string {
  return xml
    .replace('<endEvent id="end" />', `<endEvent id="end" />
    <boundaryEvent id="timeout" attachedToRef="approve"><timerEventDefinition id="timeoutTimer" /></boundaryEvent>
    <sequenceFlow id="f3" sourceRef="timeout" targetRef="expired" />
    <endEvent id="expired" />`)
    .replace('</bpmndi:BPMNPlane>', `<bpmndi:BPMNShape id="timeout_di" bpmnElement="timeout"><dc:Bounds x="232" y="140" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="expired_di" bpmnElement="expired"><dc:Bounds x="232" y="240" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="f3_di" bpmnElement="f3"><di:waypoint x="250" y="176" /><di:waypoint x="250" y="240" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>`);
}

interface MenuRow { id: string; code: string; children?: MenuRow[] }

const shape = (id: string) => b.page.getByTestId('modeler-canvas').locator(`g.djs-element[data-element-id="${id}"]`);
const chartElement = (id: string) => b.page.getByTestId('flow-chart-canvas').locator(`g.djs-element[data-element-id="${id}"]`);

async function pickCategory(label: string): Promise<void> {
  await b.page.getByTestId('flow-deploy-category').click();
  await b.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: label }).click();
}

async function openPage(path: string): Promise<void> {
  await b.page.goto(`${b.baseUrl}${path}`);
  await b.page.getByTestId('resource-page').waitFor();
  await waitFor(b.page, `rows on ${path}`, async () => (await tableRows(b.page).count()) > 0);
}

beforeAll(async () => {
  admin = (await apiToken(b.baseUrl, TENANT, 'admin', 'admin'))!;
  await call('/api/blade-flow/model/submit', MODEL);
  await signIn(b.page, b.baseUrl, TENANT);
});

describe('models', () => {
  it('draws a user task with its assignee in the modeler and saves the diagram', async () => {
    await openPage('/flow/model');
    await clickRowAction(tableRows(b.page).filter({ hasText: MODEL.modelKey }), 'model-row-design');
    await waitFor(b.page, 'the modeler', async () => (await b.page.getByTestId('modeler').getAttribute('data-state')) === 'ready');
    // nothing selected: the process, keyed by the model
    await expect(b.page.getByTestId('modeler-panel').getAttribute('data-kind')).resolves.toBe('process');
    await expect(b.page.getByTestId('modeler-prop-id').inputValue()).resolves.toBe(MODEL.modelKey);

    // a task appended to the start event (its context pad), made a user task (the wrench's menu)
    await shape('start').click();
    await b.page.locator('.djs-context-pad [data-action="append.append-task"]').click();
    await b.page.keyboard.press('Escape'); // leaves the label's direct editing
    await b.page.locator('.djs-context-pad [data-action="replace"]').click();
    await b.page.locator('.djs-popup [data-id="replace-with-user-task"]').click();
    await waitFor(b.page, 'the user task in the panel', async () => (await b.page.getByTestId('modeler-panel').getAttribute('data-kind')) === 'userTask');
    await b.page.getByTestId('modeler-prop-name').fill('部门审批');
    await b.page.getByTestId('modeler-prop-name').press('Enter');
    // the designer's own labels speak the console's language
    await expect(b.page.locator('.djs-palette [data-action="create.start-event"]').getAttribute('aria-label')).resolves.toBe('创建开始事件');
    // an expression typed as the assignee; a user and a role picked from the tenant's as candidates
    await b.page.getByTestId('modeler-prop-assignee').locator('input').fill('${taskUser}');
    await b.page.getByTestId('modeler-prop-assignee').locator('input').press('Tab');
    await b.page.getByTestId('modeler-prop-candidateUsers').locator('input').fill('admin');
    await b.page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '(admin)' }).first().click();
    await b.page.keyboard.press('Escape');
    await b.page.getByTestId('modeler-prop-candidateGroups').locator('input').fill('hr');
    await b.page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '(hr)' }).first().click();
    await b.page.keyboard.press('Escape');
    const groupTags = b.page.getByTestId('modeler-prop-candidateGroups').locator('.ant-select-selection-item');
    const taskId = await b.page.getByTestId('modeler-panel').getAttribute('data-element-id');
    await expect(shape(taskId!).textContent()).resolves.toContain('部门审批');
    expect(await b.page.getByTestId('modeler').getAttribute('data-dirty')).toBe('true');

    // undo takes the last edit back, redo brings it again
    await b.page.getByTestId('modeler-undo').click();
    await waitFor(b.page, 'the role undone', async () => (await groupTags.count()) === 0);
    await b.page.getByTestId('modeler-redo').click();
    await waitFor(b.page, 'the role again', async () => (await groupTags.count()) === 1);
    await expect(groupTags.first().textContent()).resolves.toContain('hr');

    await b.page.getByTestId('modeler-save').click();
    await toast(b.page, '模型已保存');
    expect(await b.page.getByTestId('modeler').getAttribute('data-dirty')).toBe('false');
    const models = await call<{ records: Array<{ id: string; modelKey: string }> }>(`/api/blade-flow/model/list?modelKey=${MODEL.modelKey}`);
    const saved = await call<{ xml: string; version: number }>(`/api/blade-flow/model/detail?id=${models.records[0]!.id}`);
    expect(saved.xml).toContain('flowable:assignee="${taskUser}"');
    expect(saved.xml).toContain('flowable:candidateGroups="hr"');
    const admins = await call<{ records: Array<{ id: string; account: string }> }>('/api/blade-system/user/list?account=admin');
    expect(saved.xml).toContain(`flowable:candidateUsers="${admins.records.find((u) => u.account === 'admin')!.id}"`);
    expect(saved.xml).toContain('name="部门审批"');
    expect(saved.version).toBe(2);
    // the list behind shows the new version
    await tableRows(b.page).filter({ hasText: MODEL.modelKey }).locator('td', { hasText: /^2$/ }).waitFor();
  });

  it('keeps an imported diagram of another process key when the server refuses it, and saves it once fixed', async () => {
    await b.page.getByTestId('modeler-file').setInputFiles({ name: 'other.bpmn', mimeType: 'text/xml', buffer: Buffer.from(withTimer(processXml('OtherKey', '别的流程'))) });
    await toast(b.page, '已导入 other.bpmn');
    await waitFor(b.page, 'the imported task', async () => (await shape('approve').count()) === 1);
    await b.page.getByTestId('modeler-save').click();
    await b.page.getByTestId('modeler-error').filter({ hasText: '「OtherKey」与模型标识「E2eExpense」不一致' }).waitFor();
    // the dialog and the drawing stay
    expect(await shape('approve').count()).toBe(1);
    expect(await b.page.getByTestId('modeler').getAttribute('data-dirty')).toBe('true');

    await b.page.getByTestId('modeler-fix-process-id').click();
    await expect(b.page.getByTestId('modeler-prop-id').inputValue()).resolves.toBe(MODEL.modelKey);

    // the timer's duration (checked as ISO 8601) and a flow's condition, from the panel
    await shape('timeout').click();
    await waitFor(b.page, 'the timer in the panel', async () => (await b.page.getByTestId('modeler-panel').getAttribute('data-kind')) === 'timerEvent');
    await b.page.getByTestId('modeler-prop-duration').fill('24 hours');
    await b.page.getByTestId('modeler-panel').locator('.ant-form-item-has-error').waitFor();
    await b.page.getByTestId('modeler-prop-duration').fill('PT24H');
    await b.page.getByTestId('modeler-prop-duration').press('Enter');
    // a straight flow has no height to click on: the middle of its line
    const flow = (await shape('f2').boundingBox())!;
    await b.page.mouse.click(flow.x + flow.width / 2, flow.y + flow.height / 2);
    await waitFor(b.page, 'the flow in the panel', async () => (await b.page.getByTestId('modeler-panel').getAttribute('data-kind')) === 'sequenceFlow');
    await b.page.getByTestId('modeler-prop-condition').fill('${days > 3}');
    await b.page.getByTestId('modeler-prop-condition').press('Enter');

    await b.page.getByTestId('modeler-save').click();
    await toast(b.page, '模型已保存');
    const models = await call<{ records: Array<{ id: string }> }>(`/api/blade-flow/model/list?modelKey=${MODEL.modelKey}`);
    const saved = await call<{ xml: string }>(`/api/blade-flow/model/detail?id=${models.records[0]!.id}`);
    // (the imported document's default namespace stays: elements without a prefix)
    expect(saved.xml).toMatch(/<timeDuration xsi:type="tFormalExpression">PT24H<\/timeDuration>/);
    expect(saved.xml).toContain('${days &gt; 3}</conditionExpression>');
    expect(saved.xml).toContain('<process id="E2eExpense"');
  });

  it('asks before closing with unsaved changes', async () => {
    await b.page.getByTestId('modeler-prop-name').fill('改过的名字');
    await b.page.getByTestId('modeler-prop-name').blur();
    await b.page.getByTestId('modeler-cancel').click();
    await b.page.locator('.ant-modal-confirm', { hasText: '未保存' }).waitFor();
    await b.page.getByTestId('confirm-cancel').click();
    expect(await b.page.getByTestId('modeler').isVisible()).toBe(true);
    await b.page.getByTestId('modeler-cancel').click();
    await confirm(b.page);
    await b.page.getByTestId('modeler').waitFor({ state: 'detached' });
  });

  it('deploys the model and shows the version made', async () => {
    await clickRowAction(tableRows(b.page).filter({ hasText: MODEL.modelKey }), 'model-row-deploy');
    await b.page.getByTestId('flow-deploy-submit').click();
    const deployed = b.page.getByTestId('flow-deployed');
    await deployed.waitFor();
    await expect(deployed.textContent()).resolves.toContain(`${TENANT}: 别的流程 (版本 1)`);
    await confirm(b.page);
  });
});

describe('deployments', () => {
  it('refuses a broken file naming it, and deploys good ones', async () => {
    await openPage('/flow/manager');
    await b.page.getByTestId('manager-upload').click();
    const form = b.page.getByTestId('manager-upload-form');
    await form.locator('input[type=file]').setInputFiles([
      { name: 'good.bpmn20.xml', mimeType: 'text/xml', buffer: Buffer.from(processXml('E2eUpload', 'E2E 上传流程')) },
      { name: 'broken.bpmn', mimeType: 'text/xml', buffer: Buffer.from(processXml('E2eBroken', 'E2E 坏流程', true)) },
    ]);
    await pickCategory('通用审批');
    // a tenant's administrator deploys into the own tenant only
    expect(await b.page.getByTestId('flow-deploy-tenants').count()).toBe(0);
    await b.page.getByTestId('manager-upload-form-submit').click();
    await b.page.getByTestId('manager-upload-error').filter({ hasText: 'broken.bpmn' }).waitFor();
    // all or none: nothing was deployed
    const none = await call<{ total: number }>('/api/blade-flow/manager/list?processKey_equal=E2eUpload');
    expect(none.total).toBe(0);

    await form.locator('.ant-upload-list-item', { hasText: 'broken.bpmn' }).locator('button').click();
    await b.page.getByTestId('manager-upload-form-submit').click();
    await b.page.getByTestId('flow-deployed').filter({ hasText: 'E2E 上传流程 (版本 1)' }).waitFor();
    await confirm(b.page);
    await tableRows(b.page).filter({ hasText: 'E2eUpload' }).waitFor();
  });

  it('shows a definition\'s diagram, suspends, activates and deletes its deployment', async () => {
    const row = () => tableRows(b.page).filter({ hasText: 'E2eUpload' });
    await clickRowAction(row(), 'manager-row-chart');
    await waitFor(b.page, 'the diagram', async () => (await b.page.getByTestId('flow-chart-canvas').getAttribute('data-state')) === 'ready');
    expect(await chartElement('approve').count()).toBe(1);
    await b.page.locator('.ant-modal-close').click();

    await clickRowAction(row(), 'manager-row-state');
    await confirm(b.page);
    await toast(b.page, '流程已挂起');
    await waitFor(b.page, 'the row suspended', async () => (await row().getByTestId('manager-row-state').getAttribute('data-state')) === 'active');
    await clickRowAction(row(), 'manager-row-state');
    await confirm(b.page);
    await toast(b.page, '流程已激活');

    await clickRowAction(row(), 'manager-row-delete');
    await confirm(b.page);
    await toast(b.page, '部署已删除');
    await row().waitFor({ state: 'detached' });
  });
});

describe('running instances', () => {
  let instanceId = '';
  let definitionId = '';

  beforeAll(async () => {
    // the approver: a user whose role has the work lists
    const platform = (await apiToken(b.baseUrl, '000000', 'admin', 'admin'))!;
    const flat = (rows: MenuRow[]): MenuRow[] => rows.flatMap((r) => [r, ...flat(r.children ?? [])]);
    const menus = flat(await call<MenuRow[]>('/api/blade-system/menu/list', undefined, platform)).filter((m) => m.code === 'work' || m.code.startsWith('work_'));
    const role = await call<{ id: string }>('/api/blade-system/role/submit', { roleName: 'E2E审批人', roleAlias: 'e2e_fa_approver', sort: 42 });
    await call('/api/blade-system/role/grant', { roleIds: role.id, menuIds: menus.map((m) => m.id).join(',') });
    const depts = await call<Array<{ id: string }>>('/api/blade-system/dept/tree');
    const approver = await call<{ id: string }>('/api/blade-system/user/submit', {
      account: APPROVER.account, name: APPROVER.realName, realName: APPROVER.realName, deptId: depts[0]!.id, roleId: role.id, password: md5(APPROVER.first),
    });
    // an initial password must be changed before anything else
    const first = (await apiToken(b.baseUrl, TENANT, APPROVER.account, APPROVER.first))!;
    const pwd = md5(APPROVER.password);
    await call('/api/blade-system/user/update-password', { oldPassword: md5(APPROVER.first), newPassword: pwd, newPassword1: pwd }, first);
    const approverToken = (await apiToken(b.baseUrl, TENANT, APPROVER.account, APPROVER.password))!;

    // a leave of 5 days, approved by its approver: it waits for HR now
    const leave = (await call<{ records: Array<{ id: string; processKey: string }> }>('/api/blade-flow/work/start-list')).records.find((r) => r.processKey === 'Leave')!;
    definitionId = leave.id;
    const started = await call<{ processInstanceId: string }>('/api/blade-desk/process/leave/start-process', {
      processDefinitionId: leave.id, startTime: '2026-03-02 09:00', endTime: '2026-03-06 18:00', days: 5, reason: 'E2E 年假', taskUser: approver.id,
    });
    instanceId = started.processInstanceId;
    const todo = await call<{ records: Array<{ id: string; instanceId: string }> }>('/api/blade-flow/work/todo-list?size=50', undefined, approverToken);
    const task = todo.records.find((r) => r.instanceId === instanceId)!;
    await call('/api/blade-flow/work/complete-task', { taskId: task.id, processInstanceId: instanceId, flag: 'ok', comment: 'E2E 同意' }, approverToken);
  });

  it('refuses to delete the deployment while the instance runs, with the server\'s reason', async () => {
    await openPage('/flow/manager');
    await clickRowAction(b.page.locator(`[data-row-key="${definitionId}"]`), 'manager-row-delete');
    await confirm(b.page);
    await toast(b.page, /「请假流程」仍有 \d+ 个运行中的流程实例/);
    expect(await b.page.locator(`[data-row-key="${definitionId}"]`).count()).toBe(1);
  });

  it('shows where the instance stands on its diagram, with the step\'s details on hover and the history below', async () => {
    await openPage('/flow/follow');
    await clickRowAction(b.page.locator(`[data-row-key="${instanceId}"]`), 'follow-row-chart');
    await waitFor(b.page, 'the diagram', async () => (await b.page.getByTestId('flow-chart-canvas').getAttribute('data-state')) === 'ready');
    await b.page.getByTestId('flow-chart-legend').waitFor();
    const classes = async (id: string) => (await chartElement(id).getAttribute('class')) ?? '';
    expect(await classes('start')).toContain('flow-done');
    expect(await classes('managerApproval')).toContain('flow-done');
    expect(await classes('flowToManager')).toContain('flow-taken');
    expect(await classes('flowManagerPassed')).toContain('flow-taken');
    expect(await classes('flowLongLeave')).toContain('flow-taken');
    expect(await classes('hrApproval')).toContain('flow-running');
    expect(await classes('adjust')).not.toMatch(/flow-/);
    expect(await classes('flowShortLeave')).not.toContain('flow-taken');

    await chartElement('managerApproval').hover();
    const tip = b.page.locator('[data-testid="flow-chart-tip"][data-element-id="managerApproval"]');
    await tip.waitFor();
    await expect(tip.textContent()).resolves.toMatch(new RegExp(`${APPROVER.realName}.*通过.*E2E 同意`));

    const history = b.page.getByTestId('flow-chart-history');
    await expect(history.locator('tr[data-element-id="managerApproval"]').textContent()).resolves.toContain('E2E 同意');
    await expect(history.locator('tr[data-element-id="hrApproval"]').textContent()).resolves.toContain('办理中');
    await b.page.locator('.ant-modal-close').click();
  });

  it('deletes the instance with a reason', async () => {
    await clickRowAction(b.page.locator(`[data-row-key="${instanceId}"]`), 'follow-row-delete');
    await b.page.getByTestId('follow-delete-submit').click();
    await b.page.getByTestId('follow-delete').locator('.ant-form-item-explain-error', { hasText: '请输入删除原因' }).waitFor();
    await b.page.getByTestId('follow-delete-reason').fill('E2E 重复提交');
    await b.page.getByTestId('follow-delete-submit').click();
    await toast(b.page, '流程实例已删除');
    await b.page.locator(`[data-row-key="${instanceId}"]`).waitFor({ state: 'detached' });
    const sent = await call<{ records: Array<{ id: string; status: string; deleteReason: string }> }>('/api/blade-flow/work/send-list?size=50');
    expect(sent.records.find((r) => r.id === instanceId)).toMatchObject({ status: 'deleted', deleteReason: 'E2E 重复提交' });
  });
});

describe('the platform\'s administrators', () => {
  it('deploy uploaded files into the tenants they choose', async () => {
    await signOutLocally(b.page, b.baseUrl);
    await signIn(b.page, b.baseUrl);
    // the platform's tenant has no deployments of its own
    await b.page.goto(`${b.baseUrl}/flow/manager`);
    await b.page.getByTestId('resource-page').waitFor();
    await b.page.getByTestId('manager-upload').click();
    await b.page.getByTestId('manager-upload-form').locator('input[type=file]').setInputFiles(
      { name: 'platform.bpmn', mimeType: 'text/xml', buffer: Buffer.from(processXml('E2ePlatform', 'E2E 平台下发')) });
    await pickCategory('通用审批');
    await b.page.getByTestId('flow-deploy-tenants').click();
    await b.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: `(${TENANT})` }).click();
    await b.page.keyboard.press('Escape'); // closes the list, not the dialog
    await b.page.getByTestId('manager-upload-form-submit').click();
    await b.page.getByTestId('flow-deployed').filter({ hasText: `${TENANT}: E2E 平台下发 (版本 1)` }).waitFor();
    await confirm(b.page);
    const inTenant = await call<{ total: number }>('/api/blade-flow/manager/list?processKey_equal=E2ePlatform');
    expect(inTenant.total).toBe(1);
  });
});

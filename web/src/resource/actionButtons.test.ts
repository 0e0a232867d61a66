import {
  defineActions, defineResource, idsParamSchema, okOutput, resources, type ResourceDef,
} from '@console/contract';
import { deviceControlResource, firmwareResource } from '@console/contract/areas/device/index';
import { productResource } from '@console/contract/areas/product/index';
import { storageOrderResource } from '@console/contract/areas/storage/index';
import { APPROVAL_APPROVED, APPROVAL_REJECTED, areaDispatchOaResource, areaOaResource } from '@console/contract/areas/supplier/index';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  actionButtons, askInput, decideInput, doneMessage, namedRows, rowActionInput, rowInputOf, rowName, shownOn, takesAsked, takesDecision,
  toolbarActionInput, toolbarInputOf, type AskDef,
} from './actionButtons';

const id = z.string().regex(/^\d+$/);
const thing = defineResource({
  code: 'thing',
  path: '/api/x/thing',
  title: { zh: '物', en: 'Things' },
  scope: 'tenant',
  fields: { name: { type: 'string', label: { zh: '名称', en: 'Name' }, required: true } },
  menu: {
    parent: 'x', route: '/x/thing', name: { zh: '物', en: 'Things' }, sort: 1,
    buttons: [
      { code: 'thing_enable', name: { zh: '启用', en: 'Enable' }, alias: 'enable', placement: 'row', action: 'enable' },
      { code: 'thing_note', name: { zh: '备注', en: 'Note' }, alias: 'note', placement: 'row', action: 'note' },
      { code: 'thing_sync', name: { zh: '同步', en: 'Sync' }, alias: 'sync', placement: 'both', action: 'sync' },
      { code: 'thing_flush', name: { zh: '清空', en: 'Flush' }, alias: 'flush', placement: 'toolbar', action: 'flush' },
      { code: 'thing_grant', name: { zh: '授权', en: 'Grant' }, alias: 'grant', placement: 'toolbar', action: 'grant', custom: true },
      { code: 'thing_import', name: { zh: '导入', en: 'Import' }, alias: 'import', placement: 'toolbar' },
      { code: 'thing_ghost', name: { zh: '无', en: 'None' }, alias: 'ghost', placement: 'row', action: 'nothing' },
    ],
  },
  actions: defineActions('/api/x/thing', {
    enable: { method: 'POST', permission: 'thing_enable', title: { zh: '启用', en: 'Enable' }, input: z.object({ id, comment: z.string().optional() }), output: okOutput },
    note: { method: 'POST', permission: 'thing_note', title: { zh: '备注', en: 'Note' }, input: z.object({ id, note: z.string().min(1) }), output: okOutput },
    sync: { method: 'POST', permission: 'thing_sync', title: { zh: '同步', en: 'Sync' }, input: z.object({ ids: idsParamSchema }), output: z.object({ sent: z.number() }) },
    flush: { method: 'POST', permission: 'thing_flush', title: { zh: '清空', en: 'Flush' }, input: z.object({}), output: okOutput },
    grant: { method: 'POST', permission: 'thing_grant', title: { zh: '授权', en: 'Grant' }, input: z.object({}), output: okOutput },
  }),
});

const codesOf = (bs: { button: { code: string } }[]) => bs.map((b) => b.button.code);

describe('the generic action buttons', () => {
  it('tells how a row and a toolbar call an action from its input', () => {
    const a = thing.actions;
    expect(rowInputOf(a.enable)).toBe('id'); // other keys optional
    expect(rowInputOf(a.note)).toBeNull(); // needs more than the row
    expect(rowInputOf(a.sync)).toBe('ids');
    expect(rowInputOf(a.flush)).toBeNull();
    expect(toolbarInputOf(a.sync)).toBe('ids');
    expect(toolbarInputOf(a.flush)).toBe('none');
    expect(toolbarInputOf(a.enable)).toBeNull(); // one row's: not the toolbar's
    expect(toolbarInputOf(a.note)).toBeNull();
  });

  it('renders the buttons naming a callable action, by placement, for who holds them', () => {
    const all = actionButtons(thing, () => true);
    expect(codesOf(all.row)).toEqual(['thing_enable', 'thing_sync']);
    expect(codesOf(all.toolbar)).toEqual(['thing_sync', 'thing_flush']);
    const some = actionButtons(thing, (c) => c === 'thing_sync');
    expect(codesOf(some.row)).toEqual(['thing_sync']);
    expect(codesOf(some.toolbar)).toEqual(['thing_sync']);
    expect(actionButtons(thing, () => false)).toEqual({ row: [], toolbar: [] });
  });

  it('leaves out the buttons a custom page draws, those without an action and those naming none', () => {
    const all = actionButtons(thing, () => true);
    const codes = [...codesOf(all.row), ...codesOf(all.toolbar)];
    for (const code of ['thing_grant', 'thing_import', 'thing_ghost', 'thing_note']) expect(codes).not.toContain(code);
  });

  it('builds the input from the row or the selection', () => {
    const all = actionButtons(thing, () => true);
    expect(rowActionInput(all.row[0]!, '7')).toEqual({ id: '7' });
    expect(rowActionInput(all.row[1]!, '7')).toEqual({ ids: ['7'] });
    expect(toolbarActionInput(all.toolbar[0]!, ['1', '2'])).toEqual({ ids: ['1', '2'] });
    expect(toolbarActionInput(all.toolbar[1]!, ['1', '2'])).toEqual({});
    // each input passes the action's own schema
    expect(thing.actions.sync.input.safeParse(toolbarActionInput(all.toolbar[0]!, ['1', '2'])).success).toBe(true);
  });

  it('names the rows in the confirmation, a few at most', () => {
    expect(namedRows(['A', 'B'], 'zh')).toEqual({ names: '「A」、「B」', more: 0 });
    expect(namedRows(['A', 'B'], 'en')).toEqual({ names: '“A”, “B”', more: 0 });
    expect(namedRows(['1', '2', '3', '4', '5', '6', '7'], 'zh').more).toBe(2);
  });

  it('fills the declared success message from the answer', () => {
    const sync = deviceControlResource.menu!.buttons!.find((b) => b.code === 'device_control_sync')!;
    expect(doneMessage(sync, { sent: 3, offline: 1 }, 'zh')).toBe('已向 3 台设备下发, 1 台离线');
    expect(doneMessage(sync, { sent: 3, offline: 1 }, 'en')).toBe('Sent to 3 devices, 1 offline');
    expect(doneMessage(thing.menu!.buttons![0]!, true, 'zh')).toBeNull();
  });
});

describe('the definitions\' action buttons', () => {
  const defs = Object.values(resources) as ResourceDef[];
  const generic = (code: string) => {
    const def = defs.find((d) => d.code === code)!;
    return actionButtons(def, () => true);
  };

  it('firmware: 发布, 撤回 and 上传云端 on each row, with the row\'s id', () => {
    const b = actionButtons(firmwareResource, () => true);
    expect(b.row.map((x) => [x.button.code, x.input])).toEqual([['firmware_publish', 'id'], ['firmware_withdraw', 'id'], ['firmware_cloud', 'id']]);
    expect(b.toolbar).toEqual([]);
  });

  it('device control: 同步状态 on each row and over the selection, with ids', () => {
    const b = actionButtons(deviceControlResource, () => true);
    expect(b.row.map((x) => [x.button.code, x.input])).toEqual([['device_control_sync', 'ids']]);
    expect(b.toolbar.map((x) => [x.button.code, x.input])).toEqual([['device_control_sync', 'ids']]);
  });

  it('products: 清除缓存 in the toolbar, without input, with its own confirmation and message', () => {
    const b = actionButtons(productResource, () => true);
    expect(b.toolbar.map((x) => [x.button.code, x.input])).toEqual([['product_clear_cache', 'none']]);
    expect(b.toolbar[0]!.button.confirm?.zh).toContain('清除缓存');
    expect(doneMessage(b.toolbar[0]!.button, { cleared: 4 }, 'zh')).toBe('清除完毕 (本实例 4 条)');
  });

  it('never renders generically a button a custom page draws (their pages\' dialogs)', () => {
    for (const code of ['user', 'tenant', 'role', 'topmenu', 'batch', 'emergency_unlock', 'device_notice', 'attach']) {
      const b = generic(code);
      expect([...b.row, ...b.toolbar], code).toEqual([]);
    }
  });

  it('has every button that names an action name one the definition declares', () => {
    for (const def of defs) {
      for (const b of def.menu?.buttons ?? []) if (b.action) expect(def.actions?.[b.action], `${def.code}: ${b.code}`).toBeDefined();
    }
  });
});

describe('decide buttons', () => {
  const decide = { field: 'status', approve: 1, reject: 2, comment: 'comment' };
  const decision = z.object({ id, status: z.coerce.number().int().refine((s) => s === 1 || s === 2), comment: z.string().max(255).optional() });
  const request = defineResource({
    code: 'ask',
    path: '/api/x/ask',
    title: { zh: '申请', en: 'Requests' },
    scope: 'tenant',
    fields: { name: { type: 'string', label: { zh: '名称', en: 'Name' }, required: true } },
    menu: {
      parent: 'x', route: '/x/ask', name: { zh: '申请', en: 'Requests' }, sort: 1,
      buttons: [
        { code: 'ask_process', name: { zh: '审批', en: 'Decide' }, alias: 'process', placement: 'both', action: 'process', decide },
        // an action that takes no decision: the button is not offered at all (not even as a plain confirmation)
        { code: 'ask_close', name: { zh: '关闭', en: 'Close' }, alias: 'close', placement: 'row', action: 'close', decide },
        // a decision whose values the action refuses
        { code: 'ask_odd', name: { zh: '审', en: 'Odd' }, alias: 'odd', placement: 'row', action: 'process', decide: { ...decide, approve: 'yes' } },
        // a comment key the action does not take (zod would drop it silently)
        { code: 'ask_note', name: { zh: '注', en: 'Note' }, alias: 'note', placement: 'row', action: 'process', decide: { ...decide, comment: 'note' } },
      ],
    },
    actions: defineActions('/api/x/ask', {
      process: { method: 'POST', permission: 'ask_process', title: { zh: '审批', en: 'Decide' }, input: decision, output: okOutput },
      close: { method: 'POST', permission: 'ask_close', title: { zh: '关闭', en: 'Close' }, input: z.object({ id }), output: okOutput },
    }),
  });

  it('offers a decide button on rows when its action takes the row\'s id, either decision and the comment; never in the toolbar', () => {
    expect(rowInputOf(request.actions.process, decide)).toBe('decide');
    expect(takesDecision(request.actions.close, decide)).toBe(false);
    expect(rowInputOf(request.actions.close, decide)).toBeNull();
    expect(rowInputOf(request.actions.close)).toBe('id');
    expect(takesDecision(request.actions.process, { ...decide, approve: 'yes' })).toBe(false);
    expect(takesDecision(request.actions.process, { ...decide, comment: 'note' })).toBe(false);
    expect(takesDecision(request.actions.process, { field: 'status', approve: 1, reject: 2 })).toBe(true);
    const b = actionButtons(request, () => true);
    expect(b.row.map((x) => [x.button.code, x.input])).toEqual([['ask_process', 'decide']]);
    expect(b.toolbar).toEqual([]);
  });

  it('sends the row\'s id, the decision in its field and the comment when one was written', () => {
    expect(decideInput(decide, '7', 'approve', '  同意 ')).toEqual({ id: '7', status: 1, comment: '同意' });
    expect(decideInput(decide, '7', 'reject')).toEqual({ id: '7', status: 2 });
    expect(decideInput(decide, '7', 'reject', '   ')).toEqual({ id: '7', status: 2 });
    expect(decideInput({ field: 'status', approve: 1, reject: 2 }, '7', 'approve', 'ignored')).toEqual({ id: '7', status: 1 });
    for (const input of [decideInput(decide, '7', 'approve', '同意'), decideInput(decide, '7', 'reject')]) {
      expect(request.actions.process.input.safeParse(input).success).toBe(true);
    }
  });

  it('区域审批 and 派发审批: 审批 on each row, deciding `process` with status 1 or 2 and the comment', () => {
    for (const def of [areaOaResource, areaDispatchOaResource]) {
      const b = actionButtons(def, () => true);
      expect(b.row.map((x) => [x.button.code, x.input]), def.code).toEqual([[`${def.code}_process`, 'decide']]);
      expect(b.toolbar, def.code).toEqual([]);
      const { decide: d } = b.row[0]!.button;
      expect(decideInput(d!, '9', 'approve', '可以')).toEqual({ id: '9', status: APPROVAL_APPROVED, comment: '可以' });
      expect(decideInput(d!, '9', 'reject')).toEqual({ id: '9', status: APPROVAL_REJECTED });
      expect(def.actions.process.input.safeParse(decideInput(d!, '9', 'reject', '不对')).success).toBe(true);
      // only a pending request is decided
      expect(shownOn(b.row[0]!.button, { id: '9', status: 0 })).toBe(true);
      expect(shownOn(b.row[0]!.button, { id: '9', status: APPROVAL_APPROVED })).toBe(false);
    }
  });

  it('names a row by the name the server answers beside its name field (a region path\'s), else by the field', () => {
    expect(rowName({ id: '1', code: '330000,330100', codeName: '浙江省 / 杭州市' }, 'code')).toBe('浙江省 / 杭州市');
    expect(rowName({ id: '1', code: '330000,330100', codeName: '' }, 'code')).toBe('330000,330100');
    expect(rowName({ id: '1', title: 'A' }, 'title')).toBe('A');
    expect(rowName({ id: '1' }, 'title')).toBe('1');
  });
});

describe('shownOn', () => {
  it('shows a row button only on rows whose field holds one of its values; a button without the rule everywhere', () => {
    const buttons = firmwareResource.menu!.buttons!;
    const publish = buttons.find((b) => b.code === 'firmware_publish')!;
    const withdraw = buttons.find((b) => b.code === 'firmware_withdraw')!;
    const cloud = buttons.find((b) => b.code === 'firmware_cloud')!;
    const draft = { id: '1', state: 1 };
    const published = { id: '2', state: '2' };
    const withdrawn = { id: '3', state: 3 };
    expect([publish, withdraw, cloud].map((b) => shownOn(b, draft))).toEqual([true, false, true]);
    expect([publish, withdraw, cloud].map((b) => shownOn(b, published))).toEqual([false, true, true]);
    expect([publish, withdraw, cloud].map((b) => shownOn(b, withdrawn))).toEqual([false, false, false]);
    expect(shownOn(publish, { id: '4' })).toBe(false);
    expect(shownOn(thing.menu!.buttons![0]!, { id: '5' })).toBe(true);
  });
});

describe('ask buttons', () => {
  const sn = z.string().trim().min(1).max(32);
  const ask: AskDef = {
    field: 'deviceSn', label: { zh: '转入设备 SN', en: 'To the lock (SN)' }, required: { zh: '请输入', en: 'Please enter' }, max: 32,
    upperCase: true, also: { fromSn: 'deviceSn' },
  };
  const plain: AskDef = { field: 'deviceSn', label: { zh: 'SN', en: 'SN' }, required: { zh: '请输入', en: 'Please enter' }, max: 32 };
  const moves = defineActions('/api/x/move', {
    move: { method: 'POST', permission: 'move', title: { zh: '转移', en: 'Move' }, input: z.object({ id, deviceSn: sn, fromSn: sn.optional() }), output: okOutput },
    // no asked field: only the row's id
    plain: { method: 'POST', permission: 'move', title: { zh: '转移', en: 'Move' }, input: z.object({ id }), output: okOutput },
    // the asked field but no `fromSn`: a loose object would drop it, a strict one refuses it
    loose: { method: 'POST', permission: 'move', title: { zh: '转移', en: 'Move' }, input: z.object({ id, deviceSn: sn }), output: okOutput },
    strict: { method: 'POST', permission: 'move', title: { zh: '转移', en: 'Move' }, input: z.strictObject({ id, deviceSn: sn }), output: okOutput },
    // `fromSn` required: a row without one could not be sent
    always: { method: 'POST', permission: 'move', title: { zh: '转移', en: 'Move' }, input: z.object({ id, deviceSn: sn, fromSn: sn }), output: okOutput },
    // the field is a number: the typed text is refused
    count: { method: 'POST', permission: 'move', title: { zh: '转移', en: 'Move' }, input: z.object({ id, deviceSn: z.number(), fromSn: sn.optional() }), output: okOutput },
  });

  it('offers an ask button on rows only when its action takes the row\'s id, the asked value and the row\'s values', () => {
    expect(rowInputOf(moves.move, undefined, ask)).toBe('ask');
    expect(rowInputOf(moves.move, undefined, plain)).toBe('ask');
    expect(rowInputOf(moves.plain, undefined, ask)).toBeNull();
    expect(rowInputOf(moves.plain)).toBe('id'); // without `ask`: a plain row button
    expect(rowInputOf(moves.loose, undefined, ask)).toBeNull();
    expect(rowInputOf(moves.loose, undefined, plain)).toBe('ask');
    expect(rowInputOf(moves.strict, undefined, ask)).toBeNull();
    expect(takesAsked(moves.always, ask)).toBe(false);
    expect(takesAsked(moves.count, ask)).toBe(false);
  });

  it('never offers an ask button over the selection', () => {
    const lock = defineResource({
      code: 'lock',
      path: '/api/x/move',
      title: { zh: '锁', en: 'Locks' },
      scope: 'tenant',
      fields: { deviceSn: { type: 'string', label: { zh: 'SN', en: 'SN' }, max: 32 } },
      menu: {
        parent: 'x', route: '/x/lock', name: { zh: '锁', en: 'Locks' }, sort: 1,
        buttons: [{ code: 'lock_move', name: { zh: '转移', en: 'Move' }, alias: 'move', placement: 'both', action: 'move', ask }],
      },
      actions: defineActions('/api/x/move', {
        // an input the selection could also send (`{ ids }`): only the button keeps it off the toolbar
        move: {
          method: 'POST', permission: 'lock_move', title: { zh: '转移', en: 'Move' },
          input: z.object({ id: id.optional(), deviceSn: sn.optional(), fromSn: sn.optional(), ids: idsParamSchema.optional() }), output: okOutput,
        },
      }),
    });
    expect(toolbarInputOf(lock.actions.move)).toBe('ids');
    const b = actionButtons(lock, () => true);
    expect(b.row.map((x) => [x.button.code, x.input])).toEqual([['lock_move', 'ask']]);
    expect(b.toolbar).toEqual([]);
  });

  it('sends the row\'s id, the typed value trimmed (in capitals when asked) and the row\'s values it names', () => {
    expect(askInput(ask, { id: '7', deviceSn: 'OLD1' }, '  new2 ')).toEqual({ id: '7', deviceSn: 'NEW2', fromSn: 'OLD1' });
    expect(askInput(plain, { id: '7', deviceSn: 'OLD1' }, '  new2 ')).toEqual({ id: '7', deviceSn: 'new2' });
    for (const seen of [undefined, null, '']) {
      expect(askInput(ask, { id: '7', deviceSn: seen }, 'n')).toEqual({ id: '7', deviceSn: 'N' });
    }
    expect(askInput({ ...plain, also: { fromSn: 'deviceSn', owner: 'userId' } }, { id: '7', deviceSn: 'A', userId: 3 }, 'b'))
      .toEqual({ id: '7', deviceSn: 'b', fromSn: 'A', owner: 3 });
    expect(moves.move.input.safeParse(askInput(ask, { id: '7', deviceSn: 'OLD1' }, 'new2')).success).toBe(true);
  });

  it('云存订单: 转移 on each paid row, asking the lock\'s SN and sending the one the row showed', () => {
    const b = actionButtons(storageOrderResource, () => true);
    const transfer = b.row.find((x) => x.button.code === 'storage_order_transfer');
    expect(transfer?.input).toBe('ask');
    expect(b.toolbar.map((x) => x.button.code)).not.toContain('storage_order_transfer');
    const input = askInput(transfer!.button.ask!, { id: '9', deviceSn: 'AB12' }, ' cd34 ');
    expect(input).toEqual({ id: '9', deviceSn: 'CD34', fromSn: 'AB12' });
    expect(storageOrderResource.actions.orderTransfer.input.safeParse(input).success).toBe(true);
    expect(doneMessage(transfer!.button, { deviceSn: 'CD34', endTime: '2026-01-01' }, 'zh')).toBe('剩余时长已转移到 CD34');
  });
});

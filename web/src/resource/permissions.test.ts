import { defineResource } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { allowedButtons } from './permissions';

const def = defineResource({
  code: 'thing',
  path: '/api/x/thing',
  title: { zh: '物', en: 'Things' },
  scope: 'tenant',
  fields: {},
  buttons: { view: false },
});

describe('allowedButtons', () => {
  it('shows a button only with its permission code', () => {
    const held = new Set(['thing_add', 'thing_delete']);
    expect(allowedButtons({ ...def, buttons: undefined }, (c) => held.has(c))).toEqual({
      add: true,
      edit: false,
      delete: true,
      view: false,
    });
  });

  it('lets the definition switch a button off even when it is held', () => {
    expect(allowedButtons(def, () => true)).toEqual({ add: true, edit: true, delete: true, view: false });
  });

  it('shows no edit or delete for a create-only resource, and no add either for a read-only one, unless removable', () => {
    const all = () => true;
    expect(allowedButtons({ ...def, buttons: undefined, createOnly: true }, all)).toEqual({ add: true, edit: false, delete: false, view: true });
    expect(allowedButtons({ ...def, buttons: undefined, createOnly: true, removable: true }, all)).toEqual({ add: true, edit: false, delete: true, view: true });
    expect(allowedButtons({ ...def, buttons: undefined, readOnly: true }, all)).toEqual({ add: false, edit: false, delete: false, view: true });
    expect(allowedButtons({ ...def, buttons: { edit: true }, createOnly: true }, all).edit).toBe(false);
  });
});

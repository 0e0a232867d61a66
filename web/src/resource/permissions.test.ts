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
});

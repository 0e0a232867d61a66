import { describe, expect, it } from 'vitest';
import { VARIABLE_NAME, variablesOf } from './workVariables';

describe('variablesOf', () => {
  it('sends numbers and true/false typed, anything else as text', () => {
    expect(variablesOf([{ name: 'days', value: '5' }, { name: 'rate', value: '-1.5' }, { name: 'pass', value: 'true' }, { name: 'urgent', value: 'false' }, { name: 'note', value: ' 5 days ' }]))
      .toEqual({ days: 5, rate: -1.5, pass: true, urgent: false, note: '5 days' });
  });

  it('keeps ids and codes as text', () => {
    expect(variablesOf([{ name: 'approver', value: '914537765680107520' }, { name: 'code', value: '007' }, { name: 'n', value: '9007199254740991' }]))
      .toEqual({ approver: '914537765680107520', code: '007', n: 9007199254740991 });
  });

  it('leaves out rows without a name, and is undefined when none is left', () => {
    expect(variablesOf([{ name: '  ', value: 'x' }, { value: 'y' }, { name: 'a', value: null }])).toEqual({ a: '' });
    expect(variablesOf([{ name: '', value: 'x' }])).toBeUndefined();
    expect(variablesOf(undefined)).toBeUndefined();
  });

  it('keeps the last row of a name', () => {
    expect(variablesOf([{ name: 'a', value: '1' }, { name: 'a', value: '2' }])).toEqual({ a: 2 });
  });

  it('checks names as the server does', () => {
    expect(VARIABLE_NAME.test('taskUser')).toBe(true);
    expect(VARIABLE_NAME.test('_x1')).toBe(true);
    expect(VARIABLE_NAME.test('1x')).toBe(false);
    expect(VARIABLE_NAME.test('a-b')).toBe(false);
  });
});

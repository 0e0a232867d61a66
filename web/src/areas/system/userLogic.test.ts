import { describe, expect, it } from 'vitest';
import { commonIds, userExtValid, userSubmitBody } from './userLogic';

describe('userSubmitBody', () => {
  it('sends the MD5 hex of a typed password and leaves an empty one out', () => {
    expect(userSubmitBody({ account: 'a', password: '123456' })).toEqual({ account: 'a', password: 'e10adc3949ba59abbe56e057f20f883e' });
    expect(userSubmitBody({ account: 'a', password: '' })).toEqual({ account: 'a' });
    expect(userSubmitBody({ account: 'a' })).toEqual({ account: 'a' });
  });
});

describe('userExtValid', () => {
  it('accepts empty text and JSON objects only', () => {
    expect(userExtValid('')).toBe(true);
    expect(userExtValid(null)).toBe(true);
    expect(userExtValid(' {"app":"lock"} ')).toBe(true);
    expect(userExtValid('[1]')).toBe(false);
    expect(userExtValid('"x"')).toBe(false);
    expect(userExtValid('{app}')).toBe(false);
  });
});

describe('commonIds', () => {
  it('answers the ids every list holds, in the first list\'s order', () => {
    expect(commonIds(['1,2,3', '3,2', '2,3,4'])).toEqual(['2', '3']);
    expect(commonIds(['1', null])).toEqual([]);
    expect(commonIds([])).toEqual([]);
  });
});

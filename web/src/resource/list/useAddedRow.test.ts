import { describe, expect, it } from 'vitest';
import { createdRow } from './useAddedRow';

describe('a created tree row', () => {
  const tree = { parentField: 'parentId' };
  it('names its parent, none for a root', () => {
    expect(createdRow({ id: '12', parentId: '7' }, tree)).toEqual({ id: '12', parentId: '7' });
    expect(createdRow({ id: '12', parentId: '0' }, tree)).toEqual({ id: '12', parentId: null });
    expect(createdRow({ id: 12 }, tree)).toEqual({ id: '12', parentId: null });
  });
  it('is nothing when the answer is no record', () => {
    expect(createdRow(true, tree)).toBeNull();
    expect(createdRow({ name: 'x' }, tree)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { buildListQuery } from './listQuery';

describe('buildListQuery', () => {
  it('maps paging to current/size with defaults', () => {
    expect(buildListQuery({})).toEqual({ current: 1, size: 10 });
    expect(buildListQuery({ current: 3, pageSize: 50 })).toEqual({ current: 3, size: 50 });
  });

  it('drops empty and blank values and trims the rest', () => {
    const query = buildListQuery({ current: 1, pageSize: 10, a: '', b: '   ', c: null, d: undefined, e: ' x ', f: 0, g: [] });
    expect(query).toEqual({ current: 1, size: 10, e: 'x', f: '0' });
  });

  it('joins arrays with commas', () => {
    expect(buildListQuery({ ids_in: ['1', ' ', '2'] })).toMatchObject({ ids_in: '1,2' });
  });

  it('turns the sorted column into ascs or descs', () => {
    expect(buildListQuery({}, { paramName: 'ascend' })).toMatchObject({ ascs: 'paramName' });
    expect(buildListQuery({}, { createTime: 'descend' })).toMatchObject({ descs: 'createTime' });
    const unsorted = buildListQuery({}, { createTime: null });
    expect(unsorted).not.toHaveProperty('ascs');
    expect(unsorted).not.toHaveProperty('descs');
  });
});

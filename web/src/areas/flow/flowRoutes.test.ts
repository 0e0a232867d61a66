import type { DictItem } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { businessFormOf, detailPath, formPath, handlePath, instanceDetailPath, taskHandlePath } from './flowRoutes';

const item = (dictKey: string, remark: string): DictItem => ({ id: dictKey, code: 'flow', dictKey, dictValue: dictKey, sort: 1, remark });
const FLOW = [item('1', 'leave'), item('2', ''), item('3', 'expense'), item('4', ' leave ')];

describe('businessFormOf', () => {
  it('follows the category\'s remark to a form the console has', () => {
    expect(businessFormOf(FLOW, '1')).toBe('leave');
    // as the server keeps it: BladeX's flow route key `<code>_<dictKey>`
    expect(businessFormOf(FLOW, 'flow_1')).toBe('leave');
    expect(businessFormOf(FLOW, 'flow_3')).toBeNull();
    expect(businessFormOf(FLOW, '4')).toBe('leave');
  });

  it('has none for a category without a remark, with a form the console lacks, unknown or missing', () => {
    expect(businessFormOf(FLOW, '2')).toBeNull();
    expect(businessFormOf(FLOW, '3')).toBeNull();
    expect(businessFormOf(FLOW, '9')).toBeNull();
    expect(businessFormOf(FLOW, null)).toBeNull();
    expect(businessFormOf(FLOW, '')).toBeNull();
    expect(businessFormOf([], '1')).toBeNull();
  });
});

describe('the form routes', () => {
  it('builds the three paths, each id a path segment', () => {
    expect(formPath('leave', 'Leave:2:1001')).toBe('/work/process/leave/form/Leave%3A2%3A1001');
    expect(handlePath('leave', '11', '22', '33')).toBe('/work/process/leave/handle/11/22/33');
    expect(detailPath('leave', '22', '33')).toBe('/work/process/leave/detail/22/33');
  });

  it('opens a task row\'s form only with its instance and business key', () => {
    expect(taskHandlePath(FLOW, { id: '11', instanceId: '22', businessKey: '33', category: '1' })).toBe('/work/process/leave/handle/11/22/33');
    expect(taskHandlePath(FLOW, { id: '11', instanceId: '22', businessKey: null, category: '1' })).toBeNull();
    expect(taskHandlePath(FLOW, { id: '11', instanceId: null, businessKey: '33', category: '1' })).toBeNull();
    expect(taskHandlePath(FLOW, { id: '11', instanceId: '22', businessKey: '33', category: '2' })).toBeNull();
  });

  it('opens an instance\'s detail only with its business key', () => {
    expect(instanceDetailPath(FLOW, { category: '1', businessKey: '33' }, '22')).toBe('/work/process/leave/detail/22/33');
    expect(instanceDetailPath(FLOW, { category: '1', businessKey: '' }, '22')).toBeNull();
    expect(instanceDetailPath(FLOW, { category: '1', businessKey: '33' }, null)).toBeNull();
    expect(instanceDetailPath(FLOW, { category: '2', businessKey: '33' }, '22')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { bpmnTranslate } from './bpmnTranslate';

describe('the modeler\'s translate service', () => {
  it('answers the console\'s words in zh, bpmn-js\'s own in en, and fills replacements in both', () => {
    expect(bpmnTranslate('zh-CN')('Create start event')).toBe('创建开始事件');
    expect(bpmnTranslate('zh')('User task')).toBe('用户任务');
    expect(bpmnTranslate('en')('Create start event')).toBe('Create start event');
    expect(bpmnTranslate('zh')('Unknown {thing}', { thing: 'x' })).toBe('Unknown x');
    expect(bpmnTranslate('en')('{a} and {b}', { a: '1' })).toBe('1 and {b}');
  });
});

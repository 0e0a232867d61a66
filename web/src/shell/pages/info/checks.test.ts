import { describe, expect, it } from 'vitest';
import { avatarProblem, phoneProblem } from './checks';

describe('phoneProblem', () => {
  it('names the first problem: empty, then length, then format', () => {
    expect(phoneProblem('')).toBe('empty');
    expect(phoneProblem('   ')).toBe('empty');
    expect(phoneProblem(undefined)).toBe('empty');
    expect(phoneProblem('1380013800')).toBe('length');
    expect(phoneProblem('138001380000')).toBe('length');
    expect(phoneProblem('23800138000')).toBe('format');
    expect(phoneProblem('1380013800a')).toBe('format');
    expect(phoneProblem('13800138000')).toBeNull();
  });
});

describe('avatarProblem', () => {
  it('takes jpg and png up to 500 KB', () => {
    expect(avatarProblem({ type: 'image/png', size: 500 * 1024 })).toBeNull();
    expect(avatarProblem({ type: 'image/jpeg', size: 1 })).toBeNull();
    expect(avatarProblem({ type: 'image/png', size: 500 * 1024 + 1 })).toBe('size');
    expect(avatarProblem({ type: 'image/gif', size: 10 })).toBe('type');
    expect(avatarProblem({ type: 'text/plain', size: 10 })).toBe('type');
    expect(avatarProblem({ type: '', size: 10 })).toBe('type');
  });
});

import { defineActions, idsParamSchema, okOutput } from '@console/contract/action';
import { beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';

const request = vi.fn(async (_path: string, _opts?: unknown): Promise<unknown> => true);
vi.mock('./client', () => ({ request: (path: string, opts?: unknown) => request(path, opts) }));

const { actionQuery, callAction } = await import('./action');

const actions = defineActions('/api/blade-system/user', {
  'reset-password': { method: 'POST', permission: 'user_reset', title: { zh: '重置密码', en: 'Reset password' }, input: z.object({ userIds: idsParamSchema }), output: okOutput },
  info: {
    method: 'GET',
    permission: null,
    title: { zh: '详情', en: 'Info' },
    segment: 'user-info',
    input: z.object({ id: z.string(), deep: z.boolean().optional(), tags: z.array(z.string()).optional() }),
    output: z.object({ name: z.string(), roles: z.array(z.string()) }),
  },
});

describe('callAction', () => {
  beforeEach(() => request.mockClear());

  it('posts the input of a POST action as a JSON body to its path', async () => {
    const ok = await callAction(actions['reset-password'], { userIds: ['1', '2'] });
    expect(ok).toBe(true);
    expect(request).toHaveBeenCalledWith('/api/blade-system/user/reset-password', { method: 'POST', json: { userIds: ['1', '2'] } });
    expectTypeOf(ok).toEqualTypeOf<boolean>();
  });

  it('sends the input of a GET action as the query string, with the call options', async () => {
    request.mockResolvedValueOnce({ name: 'a', roles: [] });
    const signal = new AbortController().signal;
    const info = await callAction(actions.info, { id: '7', deep: false, tags: ['x', 'y'] }, { silent: true, signal });
    expect(request).toHaveBeenCalledWith('/api/blade-system/user/user-info', { silent: true, signal, query: { id: '7', deep: false, tags: 'x,y' } });
    expectTypeOf(info).toEqualTypeOf<{ name: string; roles: string[] }>();
  });
});

describe('actionQuery', () => {
  it('leaves out empty values and keeps plain ones', () => {
    expect(actionQuery({ a: undefined, b: null, c: '', d: 0, e: true, f: [1, '2'], g: { x: 1 } })).toEqual({ c: '', d: 0, e: true, f: '1,2', g: '{"x":1}' });
    expect(actionQuery(undefined)).toEqual({});
  });
});

import type { TokenResponse } from '@console/contract/envelope';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Node has no DOM: replace the i18n setup and the toasts, keep the client, the stores and the logout.
vi.mock('../i18n', () => ({ i18n: { t: (key: string) => key } }));
vi.mock('../shell/feedback', () => ({ toastError: vi.fn() }));

/** An in-memory Web Storage, so the persisted stores work as in the browser. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, String(v)),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
  };
}
vi.stubGlobal('localStorage', memoryStorage());
vi.stubGlobal('sessionStorage', memoryStorage());

const { ApiError, request } = await import('./client');
const { useSession } = await import('../store/session');

const TOKEN = { access_token: 'a', refresh_token: 'r', tenant_id: '000000', user_id: '1' } as TokenResponse;

function answer(status: number, body: unknown): void {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })));
}

describe('request: code 401 signs out', () => {
  beforeEach(() => useSession.getState().setToken(TOKEN));

  it('forgets the session on an envelope code 401', async () => {
    answer(200, { code: 401, success: false, msg: 'token expired', data: null });
    await expect(request('/api/x')).rejects.toMatchObject({ code: 401, message: 'token expired' });
    expect(useSession.getState().token).toBeNull();
  });

  it('forgets the session on an HTTP 401 without an envelope code', async () => {
    answer(401, { error: 'unauthorized', error_description: 'bad token' });
    await expect(request('/api/x')).rejects.toBeInstanceOf(ApiError);
    expect(useSession.getState().token).toBeNull();
  });

  it('keeps the session on other failures', async () => {
    answer(200, { code: 400, success: false, msg: 'bad', data: { phone: 'wrong' } });
    await expect(request('/api/x')).rejects.toMatchObject({ code: 400 });
    expect(useSession.getState().token?.content).toBe('a');
  });

  it('keeps a newer session when a call sent with an older token answers 401', async () => {
    let answerNow: (r: Response) => void = () => undefined;
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (answerNow = resolve))));
    const pending = request('/api/x');
    // the user signs in again while the old call is on its way
    useSession.getState().setToken({ ...TOKEN, access_token: 'b' });
    answerNow(new Response(JSON.stringify({ code: 401, success: false, msg: 'expired', data: null }), { status: 200 }));
    await expect(pending).rejects.toMatchObject({ code: 401 });
    expect(useSession.getState().token?.content).toBe('b');
  });
});

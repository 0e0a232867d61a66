import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, isChunkLoadError, loadChunk, withChunkLoadGuard } from './chunkLoad';

afterEach(() => {
  vi.useRealTimers();
});

describe('loadChunk', () => {
  it('passes a loaded module through', async () => {
    await expect(loadChunk(() => Promise.resolve({ a: 1 }))).resolves.toEqual({ a: 1 });
  });

  it('turns a failed import into a ChunkLoadError keeping the cause', async () => {
    const cause = new TypeError('Failed to fetch dynamically imported module: /assets/x.js');
    const err = await loadChunk(() => Promise.reject(cause)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChunkLoadError);
    expect((err as Error).name).toBe('ChunkLoadError');
    expect((err as Error).message).toContain('Failed to fetch dynamically imported module');
    expect((err as Error).cause).toBe(cause);
  });

  it('gives up with a ChunkLoadError after 120 s without an answer', async () => {
    vi.useFakeTimers();
    const pending = loadChunk(() => new Promise<never>(() => undefined));
    const outcome = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    let settled = false;
    void pending.catch(() => undefined).finally(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(isChunkLoadError(await outcome)).toBe(true);
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('does not time out a chunk that loads in time', async () => {
    vi.useFakeTimers();
    const pending = loadChunk(() => new Promise((r) => setTimeout(() => r('ok'), CHUNK_LOAD_TIMEOUT_MS - 10)));
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS * 2);
    await expect(pending).resolves.toBe('ok');
  });
});

describe('withChunkLoadGuard', () => {
  it('wraps lazy loaders at every depth and leaves the rest alone', async () => {
    const failing = () => Promise.reject(new Error('net::ERR_FAILED'));
    const routes = withChunkLoadGuard([{ path: '/', children: [{ path: 'a', lazy: failing }, { path: 'b' }] }]);
    const [root] = routes;
    const [a, b] = root?.children ?? [];
    expect(root?.path).toBe('/');
    expect(b).toEqual({ path: 'b' });
    const load = a?.lazy;
    expect(typeof load).toBe('function');
    if (typeof load !== 'function') return;
    expect(isChunkLoadError(await load().catch((e: unknown) => e))).toBe(true);
  });
});

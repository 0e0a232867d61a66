import { lazy as reactLazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { RouteObject } from 'react-router';

/** Spec 8/9: a code chunk that has not loaded after 120 s is a ChunkLoadError. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** A page's code could not be loaded (network failure, a redeploy removed the old chunk, or the 120 s timeout). */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

export function isChunkLoadError(err: unknown): err is ChunkLoadError {
  return err instanceof ChunkLoadError || (err instanceof Error && err.name === 'ChunkLoadError');
}

/** Runs a dynamic import; its failure, or no answer within the timeout, rejects with a ChunkLoadError. */
export function loadChunk<T>(importer: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(`Loading chunk timed out after ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
    importer().then(
      (mod) => {
        clearTimeout(timer);
        resolve(mod);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(isChunkLoadError(err) ? err : new ChunkLoadError(`Loading chunk failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err }));
      },
    );
  });
}

/** React.lazy whose import goes through loadChunk (same signature as React's). */
// `any` props: the same constraint as React.lazy
export function lazy<C extends ComponentType<any>>(factory: () => Promise<{ default: C }>): LazyExoticComponent<C> {
  return reactLazy(() => loadChunk(factory));
}

/** The route tree with every `lazy` route loader going through loadChunk (route errors then show the retry). */
export function withChunkLoadGuard(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const guarded = { ...route } as RouteObject;
    const load = route.lazy;
    if (typeof load === 'function') guarded.lazy = (() => loadChunk(load)) as typeof load;
    if (route.children) guarded.children = withChunkLoadGuard(route.children);
    return guarded;
  });
}

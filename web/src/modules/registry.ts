import type { ComponentType, LazyExoticComponent } from 'react';
import { lazy } from '../shell/chunkLoad';

/**
 * Menu path → page. Each page is its own chunk, loaded when first visited. A menu entry whose path
 * is not here routes to /404. `lazy` is React's, with the 120 s ChunkLoadError guard.
 */
const pages: Readonly<Record<string, LazyExoticComponent<ComponentType>>> = {
  '/desk/notice': lazy(() => import('./desk/NoticePage').then((m) => ({ default: m.NoticePage }))),
  '/system/param': lazy(() => import('./system/ParamPage').then((m) => ({ default: m.ParamPage }))),
  '/system/dict': lazy(() => import('./system/DictScreen').then((m) => ({ default: m.DictPage }))),
  '/system/dictbiz': lazy(() => import('./system/DictScreen').then((m) => ({ default: m.DictBizPage }))),
  '/system/client': lazy(() => import('./system/ClientPage').then((m) => ({ default: m.ClientPage }))),
};

export function pageFor(path: string): LazyExoticComponent<ComponentType> | undefined {
  return Object.hasOwn(pages, path) ? pages[path] : undefined;
}

import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Menu path → page. Each page is its own chunk, loaded when first visited. A menu entry whose path
 * is not here routes to /404.
 */
const pages: Readonly<Record<string, LazyExoticComponent<ComponentType>>> = {
  '/desk/notice': lazy(() => import('./desk/NoticePage').then((m) => ({ default: m.NoticePage }))),
  '/system/param': lazy(() => import('./system/ParamPage').then((m) => ({ default: m.ParamPage }))),
};

export function pageFor(path: string): LazyExoticComponent<ComponentType> | undefined {
  return Object.hasOwn(pages, path) ? pages[path] : undefined;
}

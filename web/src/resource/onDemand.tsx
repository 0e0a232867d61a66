import { Suspense, useState, type ReactNode } from 'react';
import { lazy } from '../shell/chunkLoad';

/*
 * The list page's parts that only an action opens, each its own chunk, so that a list's first visit loads
 * what it shows: the add/edit form (ProForm's fields, the rich-text editor, uploads), the detail drawer and
 * the drawer of a row's sub-resources. The import dialog loads with ImportExport (list/toolbar.ts).
 */
const loadForm = () => import('./ResourceFormModal');
const loadDetail = () => import('./DetailDrawer');
const loadWithin = () => import('./WithinDrawer');

// the casts keep the components' own (generic) prop types; lazy() would reduce them to one instance
export const ResourceFormModal = lazy(() => loadForm().then((m) => ({ default: m.ResourceFormModal }))) as unknown as
  typeof import('./ResourceFormModal').ResourceFormModal;
export const DetailDrawer = lazy(() => loadDetail().then((m) => ({ default: m.DetailDrawer }))) as unknown as
  typeof import('./DetailDrawer').DetailDrawer;
export const WithinDrawer = lazy(() => loadWithin().then((m) => ({ default: m.WithinDrawer }))) as unknown as
  typeof import('./WithinDrawer').WithinDrawer;

let preloaded = false;

/**
 * Fetches those parts once the list has shown its rows and the browser is idle, so that their first opening
 * does not wait for the network; a failure is left to the opening, which reports it.
 */
export function preloadOnDemandParts(): void {
  if (preloaded) return;
  preloaded = true;
  const load = () => Promise.all([loadForm(), loadDetail(), loadWithin()]).catch(() => undefined);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void load(), { timeout: 3000 });
  else setTimeout(() => void load(), 500);
}

/**
 * Its children from the first time `open` is true on (a drawer then keeps its closing animation), nothing
 * before: the lazy part's chunk loads when it is first opened.
 */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open ? <Suspense fallback={null}>{children}</Suspense> : null;
}

import type { CustomPageLoader } from '../../shell/area';

/** The production area's custom pages by resource code (its manifest loads this list when the first menu page resolves). */
export const pages: Readonly<Record<string, CustomPageLoader>> = {
  factory: () => import('./FactoryPage').then((m) => ({ default: m.FactoryPage })),
  cit: () => import('./CitPage').then((m) => ({ default: m.CitPage })),
  batch: () => import('./BatchPage').then((m) => ({ default: m.BatchPage })),
};

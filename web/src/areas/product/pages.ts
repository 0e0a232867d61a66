import type { CustomPageLoader } from '../../shell/area';

/** The product area's custom pages by resource code (its manifest loads this list when the first menu page resolves). */
export const pages: Readonly<Record<string, CustomPageLoader>> = {
  product_info: () => import('./ProductPage').then((m) => ({ default: m.ProductPage })),
  product_auth: () => import('./ProductAuthPage').then((m) => ({ default: m.ProductAuthPage })),
};

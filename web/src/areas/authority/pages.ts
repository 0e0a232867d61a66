import type { CustomPageLoader } from '../../shell/area';

/** The authority area's custom pages by resource code (its manifest loads this list when the first menu page resolves). */
export const pages: Readonly<Record<string, CustomPageLoader>> = {
  role: () => import('./RolePage').then((m) => ({ default: m.RolePage })),
};

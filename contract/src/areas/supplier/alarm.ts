/**
 * The shell's region-alarm polling (spec sections 6 and 9), kept apart from the resource definitions so that the
 * console's first page can use it without loading them.
 */
export const REGION_ALARM = {
  /** the warnings (区域预警日志): the newest one, and how many */
  path: '/api/omc-log/device-area-warn',
  /** the screen a notification opens */
  route: '/supplier/region/wrong_log',
  /** only these tenants are polled */
  tenants: ['541742', '000000'] as readonly string[],
  /**
   * the menu chain that must be in the caller's menu: supplier › region › region_wrong_log (BladeX's middle code is
   * `region`; this console's is `supplier_region`)
   */
  chain: [['supplier'], ['supplier_region', 'region'], ['region_wrong_log']] as ReadonlyArray<readonly string[]>,
} as const;

import { REGION_ALARM } from '@console/contract/areas/supplier/alarm';
import type { MenuRoute } from '@console/contract/envelope';

type MenuNode = Pick<MenuRoute, 'code'> & { children?: readonly MenuNode[] };

/** Whether the menu holds the chain of codes, each level a child of the one before (supplier › region › region_wrong_log). */
export function menuHoldsChain(menu: readonly MenuNode[], chain: ReadonlyArray<readonly string[]> = REGION_ALARM.chain): boolean {
  const [level, ...rest] = chain;
  if (!level) return true;
  return menu.some((m) => level.includes(m.code) && menuHoldsChain(m.children ?? [], rest));
}

/** Spec 6: the region alarm polls only for tenants 541742 and 000000, and only with the warnings' menu. */
export function regionAlarmActive(tenantId: string | undefined, menu: readonly MenuNode[]): boolean {
  return tenantId !== undefined && REGION_ALARM.tenants.includes(tenantId) && menuHoldsChain(menu);
}

/**
 * One poll's verdict: how many warnings are new since the last poll (0 on the first, which only counts), and the
 * count to compare the next poll with.
 */
export function alarmStep(last: number | undefined, total: number): { fresh: number; last: number } {
  return { fresh: last === undefined ? 0 : Math.max(0, total - last), last: total };
}

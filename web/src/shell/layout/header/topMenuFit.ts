/**
 * How many of the top menu's items are shown in the bar (the rest go into "more"): all when they fit,
 * else as many as fit beside the "more" button.
 */
export function visibleCount(widths: readonly number[], moreWidth: number, available: number): number {
  const total = widths.reduce((a, b) => a + b, 0);
  if (total <= available + 0.5) return widths.length;
  let used = moreWidth;
  let n = 0;
  while (n < widths.length && used + (widths[n] ?? 0) <= available + 0.5) {
    used += widths[n] ?? 0;
    n++;
  }
  return n;
}

/**
 * The top menu the page on screen belongs to: the chosen one when its part of the menu holds the page,
 * else the first that does; null when none does (home, personal info, pages outside every top menu).
 */
export function topMenuOfPage(ids: readonly string[], chosen: string | null, holds: (id: string) => boolean): string | null {
  if (chosen !== null && ids.includes(chosen) && holds(chosen)) return chosen;
  return ids.find(holds) ?? null;
}

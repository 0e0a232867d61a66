import { createContext, useContext, useEffect, type ReactNode } from 'react';

/**
 * Narrow headers fold their lower-priority tools into the "more tools" menu. The header renders its tools
 * twice: in the bar and in that menu; each tool is wrapped in a `Foldable` that shows it in exactly one
 * of the two places, by the header's current fold level.
 */
export type HeaderPlace = 'bar' | 'more';

/** Fold levels: tools with `at <= level` are in the "more" menu. The user's name folds last. */
export const FOLD = { rare: 1, look: 2, errorLog: 3, notice: 4, lang: 4, userName: 5 } as const;
export const MAX_FOLD = 5;

export const HeaderFoldContext = createContext<{ level: number; place: HeaderPlace }>({ level: 0, place: 'bar' });

export function useHeaderPlace(): HeaderPlace {
  return useContext(HeaderFoldContext).place;
}

/** Shows its children in the bar below fold level `at`, in the "more" menu from `at` on. */
export function Foldable({ at, children }: { at: number; children: ReactNode }) {
  const { level, place } = useContext(HeaderFoldContext);
  const folded = level >= at;
  return (place === 'more') === folded ? children : null;
}

/** Counts of the folded tools' badges (unread notices, logged errors), shown as a dot on "more tools". */
export const FoldedBadgeContext = createContext<((key: string, count: number) => void) | null>(null);

/** A tool's badge count: while the tool is folded into "more tools", "more tools" shows a dot for it. */
export function useFoldedBadge(key: string, count: number): void {
  const place = useHeaderPlace();
  const report = useContext(FoldedBadgeContext);
  useEffect(() => {
    if (place !== 'more' || !report) return;
    report(key, count);
    return () => report(key, 0);
  }, [place, report, key, count]);
}

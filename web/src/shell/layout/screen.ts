import { useEffect } from 'react';
import { useSettings } from '../../store/settings';

/** Spec 9: width 1200 and up is level 3, 992 is 2, 768 is 1, below is 0. */
export type ScreenLevel = 0 | 1 | 2 | 3;

export function screenLevel(width: number): ScreenLevel {
  if (width >= 1200) return 3;
  if (width >= 992) return 2;
  if (width >= 768) return 1;
  return 0;
}

/** Spec 9: the menu collapses at level 1 or less. */
export function collapsesAt(level: ScreenLevel): boolean {
  return level <= 1;
}

/**
 * Collapses the sidebar on a narrow screen and expands it again when the window grows past the
 * threshold. Only crossing the threshold changes it, so the toggle keeps working at any width.
 */
export function useAutoCollapse(): void {
  useEffect(() => {
    let narrow = collapsesAt(screenLevel(window.innerWidth));
    if (narrow) useSettings.getState().setCollapsed(true);
    const onResize = () => {
      const now = collapsesAt(screenLevel(window.innerWidth));
      if (now === narrow) return;
      narrow = now;
      useSettings.getState().setCollapsed(now);
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
}

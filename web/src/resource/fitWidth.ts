import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The width the table's columns have without scrolling sideways: the body's inner width (less its vertical
 * scrollbar), measured when the page is shown and whenever it changes size; 0 until known (a hidden kept-alive
 * page is not measured: it measures again when shown).
 */
export function useTableWidth(rootRef: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const watched = new Set<Element>();
    const measure = () => {
      if (root.getClientRects().length === 0) return; // hidden
      const inner = root.querySelector<HTMLElement>('.ant-table-body') ?? root.querySelector<HTMLElement>('.ant-table-container');
      if (!inner) return;
      // the body's own box changes when its vertical scrollbar comes or goes
      if (!watched.has(inner)) {
        watched.add(inner);
        observer.observe(inner);
      }
      const next = inner.clientWidth;
      setWidth((w) => (Math.abs(w - next) < 1 ? w : next));
    };
    const observer = new ResizeObserver(measure);
    observer.observe(root);
    measure();
    return () => observer.disconnect();
  }, [rootRef]);
  return width;
}

import { useLayoutEffect, useState, type RefObject } from 'react';

/** The table body never gets shorter than this; below it the document scrolls instead. */
export const MIN_BODY_HEIGHT = 160;

export interface BodyMeasure {
  /** the window's inner height */
  viewport: number;
  /** the top of the table's scrolling body, in document coordinates */
  bodyTop: number;
  /** from the body's bottom to the page's bottom: the pager and the paddings around it */
  belowBody: number;
  /** the layout's padding and margins below the page */
  bottomGap: number;
}

/** The height of a table body that fills the window down to the pager, so the document need not scroll. */
export function fitBodyHeight(m: BodyMeasure, min = MIN_BODY_HEIGHT): number {
  return Math.max(min, Math.floor(m.viewport - m.bodyTop - m.belowBody - m.bottomGap));
}

/** Paddings, borders and margins below `el` up to the layout's content area (or the document). */
function bottomGapOf(el: HTMLElement): number {
  let gap = 0;
  for (let node: HTMLElement | null = el; node && node !== document.body; node = node.parentElement) {
    const style = getComputedStyle(node);
    gap += parseFloat(style.marginBottom) || 0;
    if (node !== el) gap += (parseFloat(style.paddingBottom) || 0) + (parseFloat(style.borderBottomWidth) || 0);
    if (node.classList.contains('ant-layout-content')) break;
  }
  return gap;
}

/**
 * Sizes the scrolling body of the antd table inside `rootRef` to the window (spec: Saber's list pages
 * keep the table header and the pager in view). It measures when the page is on screen and whenever the
 * page or the window changes size; a kept-alive page that is hidden (display: none, docs/keep-alive.md)
 * is not measured (its effects are gone anyway) and measures again when it is shown.
 */
export function useFitBodyHeight(rootRef: RefObject<HTMLElement | null>, enabled = true, initial = 400): number {
  const [height, setHeight] = useState(initial);
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root || !enabled) return;
    const measure = () => {
      if (root.getClientRects().length === 0) return; // hidden
      const body = root.querySelector<HTMLElement>('.ant-table-body');
      if (!body) return;
      const b = body.getBoundingClientRect();
      const r = root.getBoundingClientRect();
      const next = fitBodyHeight({
        viewport: window.innerHeight,
        bodyTop: b.top + window.scrollY,
        belowBody: r.bottom - b.bottom,
        bottomGap: bottomGapOf(root),
      });
      setHeight((h) => (Math.abs(h - next) < 1 ? h : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(root);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [rootRef, enabled]);
  return height;
}

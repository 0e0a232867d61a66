import type { Locator, Page } from 'playwright-core';

/**
 * What is wrong with the layout of a list screen at this size, by bounding boxes: a card past the window, a toolbar
 * past its card, a card title wrapped, a column header cut, a decisive column (by its header) not in view without
 * scrolling sideways (hidden behind the fixed actions column or past the table's edge). Empty when all is well.
 */
export async function listLayoutProblems(screen: Locator, keyColumns: readonly string[] = []): Promise<string[]> {
  return screen.evaluate((root, keys) => {
    const problems: string[] = [];
    const box = (el: Element) => el.getBoundingClientRect();
    const text = (el: Element) => (el.textContent ?? '').trim();
    for (const card of root.querySelectorAll('.ant-pro-card, .ant-card')) {
      const c = box(card);
      if (c.width > 0 && (c.right > window.innerWidth + 0.5 || c.left < -0.5)) problems.push(`a card past the window (${Math.round(c.left)}–${Math.round(c.right)})`);
      const toolbar = card.querySelector(':scope .ant-pro-table-list-toolbar');
      if (toolbar) {
        for (const el of toolbar.querySelectorAll('button, .ant-pro-table-list-toolbar-title')) {
          const r = box(el);
          if (r.width > 0 && (r.right > c.right + 0.5 || r.left < c.left - 0.5)) problems.push(`"${text(el) || el.getAttribute('aria-label')}" outside its card`);
        }
      }
    }
    for (const title of root.querySelectorAll('.ant-pro-table-list-toolbar-title, .ant-card-head-title')) {
      const r = box(title);
      const line = parseFloat(getComputedStyle(title).lineHeight) || 22;
      if (r.height > line * 1.5) problems.push(`the title "${text(title)}" wraps (${Math.round(r.height)} px high)`);
      const el = title as HTMLElement;
      if (el.scrollWidth > el.clientWidth + 1) problems.push(`the title "${text(title)}" is cut`);
    }
    for (const th of root.querySelectorAll('.ant-table-thead th')) {
      const label = th.querySelector('.ant-table-column-title') ?? th;
      const el = label as HTMLElement;
      if (text(th) && el.scrollWidth > el.clientWidth + 1) problems.push(`the header "${text(th)}" is cut`);
    }
    for (const table of root.querySelectorAll('.ant-table-container')) {
      const t = box(table);
      if (t.width === 0) continue;
      const fixedRight = [...table.querySelectorAll('.ant-table-thead th.ant-table-cell-fix-right')].map(box);
      const edge = Math.min(t.right, ...fixedRight.map((r) => r.left));
      const heads = [...table.querySelectorAll('.ant-table-thead th')].filter((th) => !th.classList.contains('ant-table-cell-fix-right'));
      for (const key of keys) {
        const th = heads.find((h) => text(h) === key);
        if (!th) continue;
        const r = box(th);
        if (r.left < t.left - 0.5 || r.right > edge + 0.5) problems.push(`the column "${key}" is not in view (${Math.round(r.left)}–${Math.round(r.right)}, room up to ${Math.round(edge)})`);
      }
    }
    return problems;
  }, [...keyColumns]);
}

/** The shown page of the tab bar (other tabs' pages stay in the document, hidden). */
export function shownPage(page: Page): Locator {
  return page.locator('[data-testid="kept-page"]').filter({ visible: true });
}

import type { ModalFuncProps } from 'antd';
import type { HookAPI } from 'antd/es/modal/useModal';

/**
 * Popups a dialog may hold (date panels, select lists, popovers, dropdown menus), open when shown and
 * not `-hidden`. Tooltips are left out: one showing under the pointer must not keep Esc from the dialog.
 */
const POPUPS = ['ant-picker-dropdown', 'ant-select-dropdown', 'ant-cascader-dropdown', 'ant-popover', 'ant-dropdown', 'ant-mentions-dropdown'];
const POPUP_SELECTOR = POPUPS.map((c) => `.${c}`).join(', ');

function shown(el: Element): boolean {
  return el.getClientRects().length > 0;
}

/** Whether a popup is open on the page: an Esc pressed now belongs to it (the innermost layer), not to the dialog. */
export function hasOpenPopup(root: ParentNode = document): boolean {
  for (const el of root.querySelectorAll(POPUP_SELECTOR)) {
    const hidden = POPUPS.some((c) => el.classList.contains(c) && el.classList.contains(`${c}-hidden`));
    if (!hidden && shown(el)) return true;
  }
  return false;
}

const FIELD_SELECTOR = [
  'input:not([type=hidden]):not([disabled]):not([readonly])',
  'input.ant-select-selection-search-input:not([disabled])',
  'textarea:not([disabled]):not([readonly])',
  '[contenteditable="true"]',
].join(', ');

/** Focuses the first field (input, textarea, select, rich text) inside `container`; true when one took the focus. */
export function focusFirstField(container: HTMLElement | null | undefined): boolean {
  if (!container) return false;
  for (const el of container.querySelectorAll<HTMLElement>(FIELD_SELECTOR)) {
    if (!shown(el)) continue;
    el.focus({ preventScroll: false });
    if (document.activeElement === el) return true;
  }
  return false;
}

/**
 * Puts the focus back where it was before a nested confirm opened: on that element when it is still
 * there and focusable, else on the dialog around it (its wrapper takes the focus, so Esc still closes
 * it). Nothing when that dialog has closed meanwhile.
 */
export function restoreFocus(before: Element | null): void {
  if (!(before instanceof HTMLElement)) return;
  const dialog = before.closest<HTMLElement>('.ant-modal-wrap');
  if (before.isConnected && shown(before)) {
    before.focus({ preventScroll: true });
    if (document.activeElement === before) return;
  }
  if (dialog?.isConnected && shown(dialog) && !dialog.contains(document.activeElement)) {
    (dialog.querySelector<HTMLElement>('.ant-modal-content') ?? dialog).focus({ preventScroll: true });
    if (!dialog.contains(document.activeElement)) dialog.focus({ preventScroll: true });
  }
}

/**
 * `modal.confirm` for a confirm opened from inside a dialog: when it closes, the focus goes back into
 * the dialog (the field or button it came from), so typing and Esc keep working there.
 */
export function confirmInDialog(modal: HookAPI, config: ModalFuncProps) {
  const before = document.activeElement;
  return modal.confirm({
    ...config,
    afterClose: () => {
      config.afterClose?.();
      restoreFocus(before);
    },
  });
}

import { SearchOutlined } from '@ant-design/icons';
import { lazy, Suspense, useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLazyDialog } from './useLazyDialog';

const MenuSearchPalette = lazy(async () => ({ default: (await import('./MenuSearchPalette')).MenuSearchPalette }));

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * Keys typed between Ctrl K and the palette's box taking the focus (its chunk may still be loading)
 * go into this hidden field, never into the page field that had the focus; the box takes them over.
 * A field rather than a key listener: text typed through an input method arrives without key events.
 */
let holder: HTMLInputElement | undefined;

function holdingField(): HTMLInputElement {
  if (!holder || !holder.isConnected) {
    holder = document.createElement('input');
    holder.type = 'text';
    holder.tabIndex = -1;
    holder.setAttribute('aria-hidden', 'true');
    holder.setAttribute('autocomplete', 'off');
    holder.dataset.testid = 'menu-search-holder';
    Object.assign(holder.style, { position: 'fixed', top: '0', left: '0', width: '1px', height: '1px', opacity: '0', border: '0', padding: '0', pointerEvents: 'none' });
    document.body.appendChild(holder);
  }
  return holder;
}

/** The header's search field: opens a palette over the user's menu (also with Ctrl/⌘ K). */
export function MenuSearch() {
  const { t } = useTranslation();
  const palette = useLazyDialog();
  const { show, hide } = palette;
  const holding = useRef(false);
  // where the focus was before the palette opened: it goes back there when the palette closes
  const before = useRef<Element | null>(null);

  const open = useCallback(() => {
    if (!palette.open) before.current = document.activeElement;
    show();
  }, [palette.open, show]);

  const returnFocus = useCallback(() => {
    const el = before.current;
    before.current = null;
    if (el instanceof HTMLElement && el.isConnected && el !== holder) el.focus({ preventScroll: true });
  }, []);

  /** What was typed while the palette was on its way (once). */
  const takeHeldKeys = useCallback(() => {
    if (!holding.current) return '';
    holding.current = false;
    const field = holdingField();
    const typed = field.value;
    field.value = '';
    return typed;
  }, []);

  const close = useCallback(() => {
    holding.current = false;
    if (holder && document.activeElement === holder) holder.blur();
    hide();
  }, [hide]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 'k') return;
      e.preventDefault();
      const active = document.activeElement;
      // already open, with the focus in its box
      if (active instanceof HTMLElement && active.getAttribute('aria-controls') === 'shell-search-results') return;
      open();
      // the page's field loses the focus at once: what is typed next waits in the holding field
      const field = holdingField();
      field.value = '';
      field.focus({ preventScroll: true });
      holding.current = true;
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open]);

  return (
    <>
      <button
        type="button"
        className="shell-header-search"
        onClick={open}
        aria-label={t('chrome.search.button')}
        title={t('chrome.search.button')}
        data-testid="menu-search"
      >
        <SearchOutlined aria-hidden="true" />
        <span className="shell-header-search-text">{t('chrome.search.button')}</span>
        <kbd aria-hidden="true">{isMac ? '⌘K' : 'Ctrl K'}</kbd>
      </button>
      {palette.mounted && (
        <Suspense fallback={null}>
          <MenuSearchPalette open={palette.open} onClose={close} takeHeldKeys={takeHeldKeys} afterClose={returnFocus} />
        </Suspense>
      )}
    </>
  );
}

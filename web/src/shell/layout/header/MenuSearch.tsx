import { SearchOutlined } from '@ant-design/icons';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLazyDialog } from './useLazyDialog';

const MenuSearchPalette = lazy(async () => ({ default: (await import('./MenuSearchPalette')).MenuSearchPalette }));

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** The header's search field: opens a palette over the user's menu (also with Ctrl/⌘ K). */
export function MenuSearch() {
  const { t } = useTranslation();
  const palette = useLazyDialog();
  const { show } = palette;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        show();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [show]);

  return (
    <>
      <button
        type="button"
        className="shell-header-search"
        onClick={show}
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
          <MenuSearchPalette open={palette.open} onClose={palette.hide} />
        </Suspense>
      )}
    </>
  );
}

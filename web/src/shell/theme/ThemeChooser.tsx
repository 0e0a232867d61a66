import { SkinOutlined } from '@ant-design/icons';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { HeaderIconButton } from '../layout/header/HeaderIconButton';
import { useLazyDialog } from '../layout/header/useLazyDialog';

const ThemeDialog = lazy(async () => ({ default: (await import('./ThemeDialog')).ThemeDialog }));

/** The theme icon of the header: opens the dialog with a swatch per theme. */
export function ThemeChooser() {
  const { t } = useTranslation();
  const dialog = useLazyDialog();
  return (
    <>
      <HeaderIconButton label={t('chrome.theme.choose')} icon={<SkinOutlined />} onClick={dialog.show} data-testid="theme-button" />
      {dialog.mounted && (
        <Suspense fallback={null}>
          <ThemeDialog open={dialog.open} onClose={dialog.hide} />
        </Suspense>
      )}
    </>
  );
}

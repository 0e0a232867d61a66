import { LockOutlined } from '@ant-design/icons';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { HeaderIconButton } from './HeaderIconButton';
import { useLazyDialog } from './useLazyDialog';

const LockDialog = lazy(async () => ({ default: (await import('./LockDialog')).LockDialog }));

/** The lock icon: asks for a lock password, then locks the screen. */
export function LockButton() {
  const { t } = useTranslation();
  const dialog = useLazyDialog();
  return (
    <>
      <HeaderIconButton label={t('chrome.lock.button')} icon={<LockOutlined />} onClick={dialog.show} data-testid="lock-button" />
      {dialog.mounted && (
        <Suspense fallback={null}>
          <LockDialog open={dialog.open} onClose={dialog.hide} />
        </Suspense>
      )}
    </>
  );
}

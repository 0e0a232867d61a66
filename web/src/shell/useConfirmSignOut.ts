import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOut } from '../auth/session';
import { testId } from '../testId';

/**
 * Sign-out with the confirmation of spec 2 (确定退出系统?), then /login — after `delayMs` when the
 * caller needs it (spec 4: a sign-out from the lock screen redirects after 100 ms).
 */
export function useConfirmSignOut(delayMs = 0): () => void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  return () => {
    modal.confirm({
      title: t('common.tip'),
      content: t('layout.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: async () => {
        await signOut();
        const go = () => navigate('/login', { replace: true });
        if (delayMs > 0) setTimeout(go, delayMs);
        else go();
      },
    });
  };
}

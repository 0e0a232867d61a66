import type { UserProfile } from '@console/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { addMessages } from '../../i18n/lazy';
import { passwordResetEn, passwordResetZh } from '../../i18n/passwordReset';
import { PasswordTab } from '../pages/info/PasswordTab';
import { useConfirmSignOut } from '../useConfirmSignOut';

addMessages('passwordReset', { zh: passwordResetZh, en: passwordResetEn });

/**
 * The forced change of an initial or reset password: a dialog that cannot be dismissed (no ×, no Esc, no
 * click outside) over the console until the server took a new password; signing out is the other way out.
 */
export function ForcedPasswordDialog() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const signOut = useConfirmSignOut();

  const changed = () => {
    // done: the gate's answer says so at once (the server's next answer would too)
    queryClient.setQueriesData<UserProfile>({ queryKey: ['password-reset'] }, (info) => info && { ...info, passwordReset: false });
  };

  return (
    <Modal
      open
      title={t('passwordReset.title')}
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={640}
      footer={
        <Button onClick={signOut} data-testid="password-reset-signout">
          {t('passwordReset.signOut')}
        </Button>
      }
    >
      <div data-testid="password-reset">
        <Alert type="warning" showIcon message={t('passwordReset.hint')} style={{ marginBottom: 16 }} />
        <PasswordTab onChanged={changed} />
      </div>
    </Modal>
  );
}

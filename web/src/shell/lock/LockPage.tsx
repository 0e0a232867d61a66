import { LockOutlined, LogoutOutlined, UnlockOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Form, Input, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { useLang } from '../../i18n';
import { LOCK_PATH, useLock } from '../../store/lock';
import { useSession } from '../../store/session';
import { HOME_PATH } from '../paths';
import { useConfirmSignOut } from '../useConfirmSignOut';
import { displayName } from '../userName';
import { lockDigest } from './lockDigest';

/** Spec 4: a sign-out that follows locking goes to /login after this delay. */
const LOGOUT_REDIRECT_MS = 100;

interface UnlockForm {
  password: string;
}

/** /lock: the signed-in user, a password field to unlock and a way out. */
export function LockPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [form] = Form.useForm<UnlockForm>();
  const user = useSession((s) => s.userInfo);
  const lang = useLang();
  // Decided on arrival: unlocking and signing out change these while the page is still shown.
  const [arrival] = useState(() => ({ signedIn: useSession.getState().token !== null, locked: useLock.getState().locked }));

  if (!arrival.signedIn) return <Navigate to="/login" replace />;
  if (!arrival.locked) return <Navigate to={HOME_PATH} replace />;

  const unlock = ({ password }: UnlockForm) => {
    const returnTo = useLock.getState().returnTo;
    if (!useLock.getState().unlock(lockDigest(password))) {
      form.setFields([{ name: 'password', errors: [t('chrome.lock.wrongPassword')] }]);
      return;
    }
    navigate(returnTo && returnTo !== LOCK_PATH ? returnTo : HOME_PATH, { replace: true });
  };

  const logout = useConfirmSignOut(LOGOUT_REDIRECT_MS);

  const name = displayName(user, lang);
  return (
    <div
      data-testid="lock-screen"
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 16,
        background: `linear-gradient(135deg, #141e30 0%, #243b55 55%, ${token.colorPrimary} 150%)`,
      }}
    >
      <main
        style={{
          width: 360,
          maxWidth: '100%',
          padding: 32,
          textAlign: 'center',
          background: 'rgba(255,255,255,0.12)',
          backdropFilter: 'blur(8px)',
          borderRadius: token.borderRadiusLG,
          boxShadow: '0 8px 32px rgba(0,0,0,0.35)',
        }}
      >
        <Avatar size={88} src={user?.avatar || undefined} icon={<UserOutlined />} data-testid="lock-avatar" />
        <h1 style={{ margin: '16px 0 4px', fontSize: token.fontSizeHeading4, color: '#fff' }} data-testid="lock-user-name">
          {name}
        </h1>
        <p style={{ margin: '0 0 24px', color: 'rgba(255,255,255,0.75)' }}>
          <LockOutlined /> {t('chrome.lock.screenTitle')}
        </p>
        <Form<UnlockForm> form={form} onFinish={unlock} data-testid="lock-unlock-form">
          <Form.Item name="password" rules={[{ required: true, message: t('chrome.lock.passwordEmpty') }]}>
            <Input.Password
              autoFocus
              size="large"
              placeholder={t('chrome.lock.unlockPlaceholder')}
              aria-label={t('chrome.lock.unlockPlaceholder')}
              data-testid="lock-unlock-password"
            />
          </Form.Item>
          <Button type="primary" size="large" htmlType="submit" block icon={<UnlockOutlined />} data-testid="lock-unlock">
            {t('chrome.lock.unlock')}
          </Button>
        </Form>
        <Button type="link" icon={<LogoutOutlined />} onClick={logout} style={{ marginTop: 16, color: '#fff' }} data-testid="lock-logout">
          {t('chrome.lock.logout')}
        </Button>
      </main>
    </div>
  );
}

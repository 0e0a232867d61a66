import { LockOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { PLATFORM_TENANT } from '@console/contract/paths';
import { Button, Form, Input, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PasswordCredentials } from '../../api/auth';
import { signIn } from '../../auth/session';
import { useLang } from '../../i18n';
import { LanguageSwitch } from '../LanguageSwitch';
import { HOME_PATH } from '../paths';

/** /login: tenant, user name and password. Failures are toasted by the API client. */
export function LoginPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [form] = Form.useForm<PasswordCredentials>();
  const [submitting, setSubmitting] = useState(false);
  const lang = useLang();

  // Messages already shown were written in the previous language: validate those fields again.
  useEffect(() => {
    const invalid = form.getFieldsError().filter((f) => f.errors.length > 0).map((f) => f.name);
    if (invalid.length > 0) form.validateFields(invalid).catch(() => undefined);
  }, [lang, form]);

  const submit = async (values: PasswordCredentials) => {
    setSubmitting(true);
    try {
      await signIn(values);
      navigate(HOME_PATH, { replace: true });
    } catch {
      setSubmitting(false);
    }
  };

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        background: `linear-gradient(135deg, ${token.colorPrimaryBg} 0%, ${token.colorBgLayout} 60%)`,
      }}
    >
      <div style={{ display: 'flex', justifyContent: 'flex-end', padding: 16 }}>
        <LanguageSwitch />
      </div>
      <div style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }}>
        {/* plain elements rather than Card/Typography: they would pull tabs, tooltips and more into this first page */}
        <main
          style={{
            width: 400,
            maxWidth: '100%',
            padding: 32,
            background: token.colorBgContainer,
            borderRadius: token.borderRadiusLG,
            boxShadow: token.boxShadowTertiary,
          }}
        >
          <h1 style={{ margin: '0 0 8px', textAlign: 'center', fontSize: token.fontSizeHeading3, color: token.colorTextHeading }}>
            {t('app.name')}
          </h1>
          <p style={{ margin: '0 0 24px', textAlign: 'center', color: token.colorTextSecondary }}>{t('login.subtitle')}</p>
          <Form<PasswordCredentials>
            form={form}
            name="login"
            size="large"
            initialValues={{ tenantId: PLATFORM_TENANT }}
            onFinish={submit}
            autoComplete="on"
            data-testid="login-form"
          >
            <Form.Item name="tenantId" rules={[{ required: true, whitespace: true, message: t('login.tenantIdRequired') }]}>
              <Input prefix={<TeamOutlined />} placeholder={t('login.tenantId')} aria-label={t('login.tenantId')} data-testid="login-tenant" />
            </Form.Item>
            <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
              <Input
                prefix={<UserOutlined />}
                placeholder={t('login.username')}
                aria-label={t('login.username')}
                autoComplete="username"
                data-testid="login-username"
              />
            </Form.Item>
            <Form.Item name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
              <Input.Password
                prefix={<LockOutlined />}
                placeholder={t('login.password')}
                aria-label={t('login.password')}
                autoComplete="current-password"
                data-testid="login-password"
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
              {t('login.submit')}
            </Button>
          </Form>
        </main>
      </div>
    </div>
  );
}

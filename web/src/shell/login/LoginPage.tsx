import { LockOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, theme } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { consoleConfigQuery } from '../../api/consoleConfig';
import type { PasswordCredentials } from '../../api/passwordGrant';
import { tenantByDomainQuery } from '../../api/tenantByDomain';
import { afterSignInPath } from '../../auth/guards';
import { signIn } from '../../auth/signIn';
import { sessionExpiredIn } from '../../auth/wantedPath';
import { useLang } from '../../i18n';
import { lazy } from '../chunkLoad';
import { LanguageSwitch } from '../LanguageSwitch';
import { type Captcha, CaptchaField, captchaQuery } from './CaptchaField';

/** The token endpoint's answer when an account had several failed sign-ins: sign in with a captcha. */
const CAPTCHA_REQUIRED = 'captcha_required';

type LoginForm = Omit<PasswordCredentials, 'captcha'> & { captchaCode?: string };

const RegisterDialog = lazy(() => import('../tools/RegisterDialog').then((m) => ({ default: m.RegisterDialog })));

/**
 * /login: tenant, user name and password, plus a captcha in captcha mode. The tenant field is left out
 * when tenant mode is off (the default tenant is used) or when the site's domain names the tenant.
 * Failures are toasted by the API client.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { state: loginState } = useLocation();
  // sent here because the server ended the session (not after a deliberate sign-out): say so
  const expired = sessionExpiredIn(loginState);
  const [form] = Form.useForm<LoginForm>();
  const queryClient = useQueryClient();
  const configQuery = useQuery(consoleConfigQuery);
  const domainQuery = useQuery(tenantByDomainQuery(window.location.host));
  // The form waits for the switches (a failed call counts as known: the defaults apply), so that a field
  // never changes under the user's hands: no late prefill, no tenant field hidden after it was typed in.
  const switchesKnown = !configQuery.isPending && !domainQuery.isPending;
  const config = configQuery.data;
  const domainTenant = domainQuery.data?.tenantId;
  const askTenant = (config?.tenantMode ?? true) && !domainTenant;
  // captcha mode asks every time; otherwise the server asks for an account that had failed sign-ins
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const captchaMode = config?.captchaMode === true || captchaAsked;
  const newCaptcha = () => {
    form.setFieldValue('captchaCode', '');
    void queryClient.resetQueries({ queryKey: captchaQuery.queryKey });
  };
  const [submitting, setSubmitting] = useState(false);
  const lang = useLang();
  const [registering, setRegistering] = useState(false);

  // Messages already shown were written in the previous language: validate those fields again.
  useEffect(() => {
    if (!switchesKnown) return;
    const invalid = form.getFieldsError().filter((f) => f.errors.length > 0).map((f) => f.name);
    if (invalid.length > 0) form.validateFields(invalid).catch(() => undefined);
  }, [lang, form, switchesKnown]);

  const submit = async ({ captchaCode, ...values }: LoginForm) => {
    const tenantId = domainTenant ?? (askTenant ? values.tenantId : config?.defaultTenantId) ?? values.tenantId;
    const captcha = captchaMode ? queryClient.getQueryData<Captcha>(captchaQuery.queryKey) : undefined;
    setSubmitting(true);
    try {
      await signIn({ ...values, tenantId, ...(captcha ? { captcha: { key: captcha.key, code: (captchaCode ?? '').trim() } } : {}) });
      navigate(afterSignInPath(loginState), { replace: true });
    } catch (e) {
      setSubmitting(false);
      if (e instanceof ApiError && e.reason === CAPTCHA_REQUIRED) setCaptchaAsked(true);
      // a captcha is good for one attempt
      else if (captchaMode) newCaptcha();
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
          {expired && (
            <div
              role="alert"
              data-testid="login-expired"
              style={{
                margin: '0 0 16px',
                padding: '8px 12px',
                color: token.colorWarningText,
                background: token.colorWarningBg,
                border: `1px solid ${token.colorWarningBorder}`,
                borderRadius: token.borderRadius,
              }}
            >
              {t('login.sessionExpired')}
            </div>
          )}
          {!switchesKnown ? <div style={{ minHeight: 260 }} aria-busy="true" data-testid="login-loading" /> : (
            <Form<LoginForm>
              form={form}
              initialValues={{ tenantId: config?.defaultTenantId }}
              name="login"
              size="large"
              onFinish={submit}
              autoComplete="on"
              data-testid="login-form"
            >
              <Form.Item
                name="tenantId"
                hidden={!askTenant}
                rules={askTenant ? [{ required: true, whitespace: true, message: t('login.tenantIdRequired') }] : []}
              >
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
              {captchaMode && <CaptchaField onRefresh={newCaptcha} />}
              <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
                {t('login.submit')}
              </Button>
            </Form>
          )}
          <div style={{ marginTop: 8, textAlign: 'right' }}>
            <Button type="link" size="small" onClick={() => setRegistering(true)} data-testid="login-register">
              {t('tools.register.link')}
            </Button>
          </div>
          {registering && (
            <Suspense fallback={null}>
              <RegisterDialog open={registering} onClose={() => setRegistering(false)} />
            </Suspense>
          )}
        </main>
      </div>
      <footer style={{ display: 'flex', justifyContent: 'center', gap: 24, padding: 16 }}>
        <Link to="/policy/user" data-testid="login-policy-user">{t('pages.policy.userAgreement')}</Link>
        <Link to="/policy/privacy" data-testid="login-policy-privacy">{t('pages.policy.privacyPolicy')}</Link>
      </footer>
    </div>
  );
}

import type { RegisterGuestRequest } from '@console/contract';
import { API } from '@console/contract/paths';
import { useQuery } from '@tanstack/react-query';
import { App, Form, Input, Modal, Spin } from 'antd';
import { md5 } from 'js-md5';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, fieldErrorsOf, request } from '../../api/client';
import { tenantByDomainQuery } from '../../api/tenantByDomain';
import { signOut } from '../../auth/session';
import { i18n } from '../../i18n';
import { useSession } from '../../store/session';
import { testId } from '../../testId';
import { sameAs } from '../../resource/rules';

interface RegisterForm {
  tenantId?: string;
  name?: string;
  account: string;
  password: string;
  confirm: string;
}

/** Spec 8: the server's msg, or "submit failed" when there is none (no answer, or an answer without a message). */
function failureText(err: unknown): string {
  const generic = [i18n.t('api.unknownError'), i18n.t('api.badResponse')];
  if (err instanceof ApiError && err.code !== 0 && err.message && !generic.includes(err.message)) return err.message;
  return i18n.t('tools.register.failed');
}

/**
 * Third-party account registration (spec 2, 4, 5): the new account waits for an administrator's
 * approval; afterwards any session is ended and the visitor is back on /login.
 */
export function RegisterDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterForm>();
  const [submitting, setSubmitting] = useState(false);
  const tenant = useQuery({ ...tenantByDomainQuery(window.location.host), enabled: open });
  const detectedTenant = tenant.data?.tenantId;
  const deciding = tenant.isPending && open;

  const submit = async (values: RegisterForm) => {
    const body: RegisterGuestRequest = {
      tenantId: (detectedTenant ?? values.tenantId ?? '').trim(),
      name: (values.name ?? '').trim(),
      account: values.account.trim(),
      password: md5(values.password),
    };
    setSubmitting(true);
    try {
      await request<unknown>(API.registerGuest, { method: 'POST', json: body, silent: true });
      void message.success(t('tools.register.success'));
      form.resetFields();
      onClose();
      if (useSession.getState().token) await signOut();
      navigate('/login', { replace: true });
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (fields) {
        form.setFields(Object.entries(fields).map(([name, text]) => ({ name: name as keyof RegisterForm, errors: [text] })));
      }
      void message.error(failureText(err));
    } finally {
      setSubmitting(false);
    }
  };

  const passwordRequired = { required: true, message: t('tools.register.passwordRequired') };
  return (
    <Modal
      open={open}
      title={t('tools.register.title')}
      okText={t('tools.register.submit')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={submitting}
      okButtonProps={{ ...testId('register-submit'), disabled: deciding }}
      width={440}
    >
      <Spin spinning={deciding}>
        <Form<RegisterForm> form={form} layout="vertical" onFinish={submit} autoComplete="off" data-testid="register-form">
          {!deciding && !detectedTenant && (
            <Form.Item
              name="tenantId"
              label={t('tools.register.tenantId')}
              rules={[{ required: true, whitespace: true, message: t('tools.register.tenantRequired') }]}
            >
              <Input data-testid="register-tenant" />
            </Form.Item>
          )}
          <Form.Item name="name" label={t('tools.register.name')}>
            <Input maxLength={64} data-testid="register-name" />
          </Form.Item>
          <Form.Item
            name="account"
            label={t('tools.register.account')}
            rules={[{ required: true, whitespace: true, message: t('tools.register.accountRequired') }]}
          >
            <Input maxLength={64} autoComplete="username" data-testid="register-account" />
          </Form.Item>
          <Form.Item name="password" label={t('tools.register.password')} rules={[passwordRequired]}>
            <Input.Password autoComplete="new-password" data-testid="register-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('tools.register.confirm')}
            dependencies={['password']}
            rules={[
              passwordRequired,
              sameAs('password', t('tools.register.mismatch')),
            ]}
          >
            <Input.Password autoComplete="new-password" data-testid="register-confirm" />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}

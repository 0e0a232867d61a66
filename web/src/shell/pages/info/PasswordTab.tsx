import { API } from '@console/contract';
import { App, Button, Form, Input } from 'antd';
import { md5 } from 'js-md5';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, request } from '../../../api/client';
import { useLang } from '../../../i18n';
import { infoLabelCol } from './labels';
import { useRevalidateOnLanguage } from './useRevalidateOnLanguage';
import { differentFrom, sameAs } from '../../../resource/rules';
import { addMessages } from '../../../i18n/lazy';
import { infoPageEn, infoPageZh } from '../../../i18n/infoPage';

addMessages('infoPage', { zh: infoPageZh, en: infoPageEn });

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  newPassword1: string;
}

export interface PasswordTabProps {
  /** after the server took the new password (the forced change closes its dialog) */
  onChanged?: () => void;
}

/**
 * The 修改密码 tab (and the forced change of an initial password, shell/password): each password leaves
 * the browser as its MD5 hex; the server signs out the other sessions.
 */
export function PasswordTab({ onChanged }: PasswordTabProps = {}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordForm>();
  const [saving, setSaving] = useState(false);
  const lang = useLang();
  useRevalidateOnLanguage(form);

  const submit = async ({ oldPassword, newPassword, newPassword1 }: PasswordForm) => {
    setSaving(true);
    try {
      await request<boolean>(API.updatePassword, {
        method: 'POST',
        json: { oldPassword: md5(oldPassword), newPassword: md5(newPassword), newPassword1: md5(newPassword1) },
      });
      form.resetFields();
      void message.success({ content: t('infoPage.passwordChanged'), duration: 6 });
      onChanged?.();
    } catch (err) {
      // the client toasted the failure (spec 8); when the server names the field at fault (wrong current
      // password, mismatch) its message shows there too
      const fields = fieldErrorsOf(err);
      if (fields) form.setFields(Object.entries(fields).map(([name, msg]) => ({ name: name as keyof PasswordForm, errors: [msg] })));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<PasswordForm> form={form} layout="horizontal" labelCol={infoLabelCol(lang)} labelWrap style={{ maxWidth: 600 }} onFinish={submit} data-testid="info-password-form">
      <Form.Item name="oldPassword" label={t('infoPage.oldPassword')} rules={[{ required: true, message: t('infoPage.oldPasswordRequired') }]}>
        <Input.Password autoComplete="current-password" data-testid="pwd-old" />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('infoPage.newPassword')}
        dependencies={['oldPassword']}
        rules={[
          { required: true, message: t('infoPage.newPasswordRequired') },
          differentFrom('oldPassword', t('infoPage.passwordUnchanged')),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="pwd-new" />
      </Form.Item>
      <Form.Item
        name="newPassword1"
        label={t('infoPage.confirmPassword')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('infoPage.confirmPasswordRequired') },
          sameAs('newPassword', t('infoPage.passwordsDiffer')),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="pwd-confirm" />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="pwd-submit">
          {t('infoPage.save')}
        </Button>
      </Form.Item>
    </Form>
  );
}

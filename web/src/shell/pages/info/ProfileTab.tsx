import { API, type UserProfile } from '@console/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Skeleton, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, request } from '../../../api/client';
import { useLang } from '../../../i18n';
import { infoLabelCol } from './labels';
import { useRevalidateOnLanguage } from './useRevalidateOnLanguage';
import { useSession } from '../../../store/session';
import { AvatarField } from './AvatarField';
import { phoneProblem } from './checks';
import { addMessages } from '../../../i18n/lazy';
import { infoPageEn, infoPageZh } from '../../../i18n/infoPage';

addMessages('infoPage', { zh: infoPageZh, en: infoPageEn });

type ProfileForm = Pick<UserProfile, 'avatar' | 'realName' | 'account' | 'name' | 'phone' | 'email'>;
const PROFILE_KEY = ['profile'] as const;
const EDITABLE = ['avatar', 'realName', 'name', 'phone', 'email'] as const;

function toForm(p: UserProfile): ProfileForm {
  return { avatar: p.avatar, realName: p.realName, account: p.account, name: p.name, phone: p.phone, email: p.email };
}

/** The 个人信息 tab: the signed-in user's own profile, saved with user/update-info. */
export function ProfileTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ProfileForm>();
  const [saving, setSaving] = useState(false);
  const lang = useLang();
  useRevalidateOnLanguage(form);
  const queryClient = useQueryClient();
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: () => request<UserProfile>(API.userProfile), staleTime: 0 });

  // after a save the form shows what the server stored (the first load fills it through initialValues)
  useEffect(() => {
    if (profile.data) form.setFieldsValue(toForm(profile.data));
  }, [profile.data, form]);

  const phoneRule: Rule = {
    validator: async (_, value: string | undefined) => {
      const problem = phoneProblem(value);
      if (problem === 'empty') throw new Error(t('infoPage.phoneEmpty'));
      if (problem === 'length') throw new Error(t('infoPage.phoneLength'));
      if (problem === 'format') throw new Error(t('infoPage.phoneFormat'));
    },
  };

  const save = async (values: ProfileForm) => {
    const body = Object.fromEntries(EDITABLE.map((k) => [k, (values[k] ?? '').trim()]));
    setSaving(true);
    try {
      await request<boolean>(API.updateProfile, { method: 'POST', json: body });
      useSession.getState().updateUserInfo({ real_name: body.realName, nick_name: body.name, avatar: body.avatar });
      void message.success(t('infoPage.saved'));
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    } catch (err) {
      // the client toasted the failure (spec 8); the fields the server names show their messages too
      const fields = fieldErrorsOf(err);
      if (fields) form.setFields(Object.entries(fields).map(([name, msg]) => ({ name: name as keyof ProfileForm, errors: [msg] })));
    } finally {
      setSaving(false);
    }
  };

  if (profile.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  return (
    <Form<ProfileForm>
      form={form}
      initialValues={profile.data ? toForm(profile.data) : undefined}
      layout="horizontal"
      labelCol={infoLabelCol(lang)}
      labelWrap
      style={{ maxWidth: 600 }}
      onFinish={save}
      data-testid="info-profile-form"
    >
      <Form.Item name="avatar" label={t('infoPage.avatar')}>
        <AvatarField />
      </Form.Item>
      <Form.Item name="realName" label={t('infoPage.realName')} rules={[{ required: true, whitespace: true, message: t('infoPage.realNameRequired') }]}>
        <Input maxLength={64} data-testid="info-realName" />
      </Form.Item>
      <Form.Item name="account" label={t('infoPage.account')}>
        <Input readOnly disabled data-testid="info-account" />
      </Form.Item>
      <Form.Item name="name" label={t('infoPage.nickname')}>
        <Input maxLength={64} data-testid="info-name" />
      </Form.Item>
      <Form.Item name="phone" label={t('infoPage.phone')} required rules={[phoneRule]} validateTrigger={['onChange', 'onBlur']}>
        <Input maxLength={32} inputMode="numeric" data-testid="info-phone" />
      </Form.Item>
      <Form.Item name="email" label={t('infoPage.email')} rules={[{ type: 'email', message: t('infoPage.emailFormat') }]}>
        <Input maxLength={128} data-testid="info-email" />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="info-save">
            {t('infoPage.save')}
          </Button>
          <Button onClick={() => profile.data && form.setFieldsValue(toForm(profile.data))} data-testid="info-reset">
            {t('infoPage.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}

import { userResource as userDef } from '@console/contract/areas/system/index';
import { useQuery } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { fieldErrorsOf } from '../../api/client';
import { useDicts } from '../../resource/dict';
import { dictOptions } from '../../resource/dictValues';
import { testId } from '../../testId';
import { userExtValid } from './userLogic';

interface PlatformForm {
  userType?: number;
  userExt?: string;
}

export interface UserPlatformDialogProps {
  userId: string;
  account: string;
  onClose: () => void;
  onSaved: () => void;
}

/** 平台配置 of one user: the platform (dictionary user_type) and its extension (JSON) → `platform-detail` / `update-platform`. */
export function UserPlatformDialog({ userId, account, onClose, onSaved }: UserPlatformDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dicts = useDicts(userDef);
  const [form] = Form.useForm<PlatformForm>();
  const [saving, setSaving] = useState(false);
  const detail = useQuery({
    queryKey: ['user-platform', userId],
    queryFn: () => callAction(userDef.actions.platformDetail, { id: userId }),
    staleTime: 0,
    gcTime: 0,
  });
  useEffect(() => {
    if (detail.data) form.setFieldsValue({ userType: detail.data.userType, userExt: detail.data.userExt ?? '' });
  }, [detail.data, form]);
  useEffect(() => {
    if (detail.isError) onClose();
  }, [detail.isError, onClose]);

  const save = async () => {
    // the form shows what is wrong; nothing to send
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      await callAction(userDef.actions.updatePlatform, { userId, userType: values.userType!, userExt: (values.userExt ?? '').trim() });
      void message.success(t('system.users.platformSaved'));
      onSaved();
      onClose();
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (fields) form.setFields(Object.entries(fields).filter(([name]) => name === 'userType' || name === 'userExt').map(([name, msg]) => ({ name: name as keyof PlatformForm, errors: [msg] })));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('system.users.platformTitle', { account })}
      onCancel={onClose}
      onOk={save}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ disabled: !detail.data, ...testId('user-platform-submit') }}
      cancelButtonProps={testId('user-platform-cancel')}
      destroyOnHidden
      width={600}
    >
      <Spin spinning={detail.isPending}>
        <Form<PlatformForm> form={form} layout="vertical" name="platform" data-testid="user-platform-form">
          <Form.Item name="userType" label={t('system.users.userType')} rules={[{ required: true, message: t('system.users.userTypeRequired') }]}>
            <Select options={dictOptions(userDef.fields.userType, dicts)} {...testId('user-platform-type')} />
          </Form.Item>
          <Form.Item
            name="userExt"
            label={t('system.users.userExt')}
            extra={t('system.users.userExtHelp')}
            rules={[{ validator: async (_r, value: string | undefined) => { if (!userExtValid(value)) throw new Error(t('system.users.userExtInvalid')); } }]}
          >
            <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} maxLength={4000} spellCheck={false} style={{ fontFamily: 'monospace' }} {...testId('user-platform-ext')} />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}

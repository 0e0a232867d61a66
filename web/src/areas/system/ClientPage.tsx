import { KeyOutlined } from '@ant-design/icons';
import { ProFormSelect } from '@ant-design/pro-components';
import { CONSOLE_CLIENT, type ActionOutput, t as text, type I18nText } from '@console/contract';
import { CLIENT_GRANT_TYPES, clientResource } from '@console/contract/areas/system/index';
import { Alert, App, Button, Modal, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { request } from '../../api/client';
import { useLang } from '../../i18n';
import { formValuesOf } from '../../resource/fieldsOf';
import { ResourcePage } from '../../resource/ResourcePage';
import type { FormOverride, ResourceRecord } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { testId } from '../../testId';

type Rec = ResourceRecord<typeof clientResource.fields>;
type Issued = ActionOutput<typeof clientResource.actions.resetSecret>;

const TEXTS = {
  reset: { zh: '重置密钥', en: 'Reset secret' },
  resetConfirm: { zh: '重置后旧密钥立即失效, 使用它的应用需要改用新密钥。确定重置「{clientId}」的密钥吗?', en: 'The old secret stops working at once; applications using it need the new one. Reset the secret of "{clientId}"?' },
  secretTitle: { zh: '客户端密钥', en: 'Client secret' },
  secretOnce: { zh: '密钥只显示这一次, 请立即复制并妥善保存; 关闭后无法再次查看, 只能重置。', en: 'The secret is shown this once: copy it and keep it safe now. It cannot be shown again, only reset.' },
  clientId: { zh: '客户端 id', en: 'Client id' },
  secret: { zh: '客户端密钥', en: 'Client secret' },
  close: { zh: '我已保存', en: 'I have saved it' },
} satisfies Record<string, I18nText>;

const splitTypes = (v: unknown) => String(v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** The grant types are picked from the known ones; the wire carries them comma-joined (BladeX). */
const form: FormOverride<Rec> = {
  fields: {
    authorizedGrantTypes: ({ name, field, lang }) => (
      <ProFormSelect
        name={name}
        label={text(field.label, lang)}
        mode="multiple"
        initialValue={['password', 'refresh_token']}
        options={CLIENT_GRANT_TYPES.map((g) => ({ label: g, value: g }))}
        rules={[{ required: true, message: typeof field.required === 'object' ? text(field.required, lang) : '' }]}
        placeholder={typeof field.required === 'object' ? text(field.required, lang) : undefined}
      />
    ),
  },
  toForm: (rec) => ({ ...formValuesOf(clientResource, rec), authorizedGrantTypes: splitTypes(rec.authorizedGrantTypes) }),
  toSubmit: (values) => ({
    ...values,
    authorizedGrantTypes: Array.isArray(values.authorizedGrantTypes) ? values.authorizedGrantTypes.join(',') : values.authorizedGrantTypes,
  }),
};

/** Shows a freshly issued secret once, with a copy button. */
function SecretDialog({ issued, onClose }: { issued: Issued | null; onClose: () => void }) {
  const lang = useLang();
  return (
    <Modal
      open={issued !== null}
      title={text(TEXTS.secretTitle, lang)}
      onCancel={onClose}
      maskClosable={false}
      footer={<Button type="primary" onClick={onClose} {...testId('client-secret-close')}>{text(TEXTS.close, lang)}</Button>}
    >
      <div {...testId('client-secret-dialog')}>
      <Alert type="warning" showIcon message={text(TEXTS.secretOnce, lang)} style={{ marginBottom: 16 }} />
      <div>{text(TEXTS.clientId, lang)}: <Typography.Text strong>{issued?.clientId}</Typography.Text></div>
      <div style={{ marginTop: 8 }}>
        {text(TEXTS.secret, lang)}:{' '}
        <Typography.Text code copyable={{ text: issued?.clientSecret ?? '' }} {...testId('client-secret-value')}>
          {issued?.clientSecret}
        </Typography.Text>
      </div>
      </div>
    </Modal>
  );
}

/**
 * system › client: the generic page, with the grant types as a multi-select, the secret shown once after
 * a create or a reset (never answered otherwise), and a reset action per row.
 */
export function ClientPage() {
  const lang = useLang();
  const { modal } = App.useApp();
  const can = usePermissionCheck();
  const [issued, setIssued] = useState<Issued | null>(null);
  const action = clientResource.actions.resetSecret;
  const canReset = can(action.permission ?? '');

  const rowActions = useMemo(
    () =>
      canReset
        ? (rec: Rec) => [
            <Button
              key="reset-secret"
              type="link"
              size="small"
              icon={<KeyOutlined />}
              data-testid="client-row-reset-secret"
              // the console's own client: a new secret would lock this console out (the server refuses it too)
              disabled={rec.clientId === CONSOLE_CLIENT.id}
              onClick={() =>
                modal.confirm({
                  title: text(TEXTS.reset, lang),
                  content: text(TEXTS.resetConfirm, lang).replace('{clientId}', String(rec.clientId ?? '')),
                  okButtonProps: testId('confirm-ok'),
                  cancelButtonProps: testId('confirm-cancel'),
                  onOk: () => request<Issued>(action.path, { method: 'POST', query: { id: rec.id } }).then(setIssued, () => undefined),
                })
              }
            >
              {text(TEXTS.reset, lang)}
            </Button>,
          ]
        : undefined,
    [action.path, canReset, lang, modal],
  );

  return (
    <>
      <ResourcePage
        def={clientResource}
        formOverride={form}
        extraRowActions={rowActions}
        onSaved={(answer, mode) => {
          const a = answer as Partial<Issued> | undefined;
          if (mode === 'create' && a?.clientSecret && a.id && a.clientId) setIssued({ id: a.id, clientId: a.clientId, clientSecret: a.clientSecret });
        }}
      />
      <SecretDialog issued={issued} onClose={() => setIssued(null)} />
    </>
  );
}

import type { DeptOption, RoleOption } from '@console/contract';
import { API } from '@console/contract/paths';
import { useQuery } from '@tanstack/react-query';
import { App, Form, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Identity } from '../../api/auth';
import { ApiError, request } from '../../api/client';
import { switchIdentity } from '../../auth/switchIdentity';
import { useLang } from '../../i18n';
import { useSession } from '../../store/session';
import { testId } from '../../testId';

/** The current one of a token's comma-joined ids, if it is among the options. */
function preselect(current: string | undefined, options: readonly { id: string }[]): string | undefined {
  const ids = (current ?? '').split(',');
  return options.find((o) => ids.includes(o.id))?.id;
}

/** Switch department and role (spec 2 "Dialogs"): the user's own departments and roles, submit 切换. */
export function SwitchIdentityDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Identity>();
  const [submitting, setSubmitting] = useState(false);
  const user = useSession((s) => s.userInfo);
  // the server names departments and roles in the UI language
  const lang = useLang();

  const depts = useQuery({
    queryKey: ['switch-identity', 'depts', user?.user_id, lang],
    queryFn: () => request<DeptOption[]>(API.deptSelect),
    enabled: open,
    staleTime: 0,
  });
  const roles = useQuery({
    queryKey: ['switch-identity', 'roles', user?.user_id, lang],
    queryFn: () => request<RoleOption[]>(API.roleSelect),
    enabled: open,
    staleTime: 0,
  });
  const ready = depts.isSuccess && roles.isSuccess;

  const submit = async (values: Identity) => {
    setSubmitting(true);
    try {
      await switchIdentity(values);
      void message.success(t('tools.switch.success'));
      onClose();
    } catch (err) {
      // the server's refusal (an id the user does not hold…); nothing was changed
      void message.error(err instanceof ApiError ? err.message : String(err));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('tools.switch.title')}
      okText={t('tools.switch.submit')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={submitting}
      okButtonProps={{ ...testId('switch-submit'), disabled: !ready }}
      destroyOnHidden
      width={420}
    >
      {ready && (
        <Form<Identity>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{ deptId: preselect(user?.dept_id, depts.data), roleId: preselect(user?.role_id, roles.data) }}
          data-testid="switch-form"
        >
          <Form.Item name="deptId" label={t('tools.switch.dept')} rules={[{ required: true, message: t('tools.switch.deptRequired') }]}>
            <Select
              allowClear
              options={depts.data.map((d) => ({ value: d.id, label: d.deptName }))}
              data-testid="switch-dept"
            />
          </Form.Item>
          <Form.Item name="roleId" label={t('tools.switch.role')} rules={[{ required: true, message: t('tools.switch.roleRequired') }]}>
            <Select
              allowClear
              options={roles.data.map((r) => ({ value: r.id, label: r.roleName }))}
              data-testid="switch-role"
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

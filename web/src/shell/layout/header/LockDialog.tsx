import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LOCK_PATH, useLock } from '../../../store/lock';
import { testId } from '../../../testId';
import { lockDigest } from '../../lock/lockDigest';

interface LockForm {
  password: string;
}

/** Spec 2 "Set lock password": the password is required (锁屏密码不能为空); submitting locks the screen. */
export function LockDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LockForm>();
  const navigate = useNavigate();
  const location = useLocation();

  const lock = ({ password }: LockForm) => {
    useLock.getState().lock(lockDigest(password), `${location.pathname}${location.search}${location.hash}`);
    onClose();
    navigate(LOCK_PATH);
  };

  return (
    <Modal
      open={open}
      title={t('chrome.lock.title')}
      okText={t('chrome.lock.submit')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      okButtonProps={testId('lock-submit')}
      cancelButtonProps={testId('lock-cancel')}
      width={400}
    >
      <Form<LockForm> form={form} layout="vertical" onFinish={lock} data-testid="lock-form">
        <Form.Item name="password" label={t('chrome.lock.password')} rules={[{ required: true, message: t('chrome.lock.passwordRequired') }]}>
          <Input.Password autoFocus autoComplete="off" data-testid="lock-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

import { SafetyOutlined } from '@ant-design/icons';
import { API } from '@console/contract/paths';
import { useQuery } from '@tanstack/react-query';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { requestBare } from '../../api/client';

/** A single-use captcha from the server: its key and a PNG data URL (a raw object, as BladeX answers it: no envelope). */
export interface Captcha {
  key: string;
  image: string;
}

export const captchaQuery = {
  queryKey: ['captcha'] as const,
  queryFn: () => requestBare<Captcha>(API.captcha),
  staleTime: Infinity,
  gcTime: 0,
};

/** Captcha mode: the code field with the server's image beside it; clicking the image shows another. */
export function CaptchaField({ onRefresh }: { onRefresh: () => void }) {
  const { t } = useTranslation();
  const captcha = useQuery(captchaQuery);
  return (
    <div style={{ display: 'flex', gap: 8 }}>
      <Form.Item name="captchaCode" style={{ flex: 1 }} rules={[{ required: true, whitespace: true, message: t('login.captchaRequired') }]}>
        <Input prefix={<SafetyOutlined />} placeholder={t('login.captcha')} aria-label={t('login.captcha')} maxLength={8} autoComplete="off" data-testid="login-captcha" />
      </Form.Item>
      <button
        type="button"
        onClick={onRefresh}
        title={t('login.captchaRefresh')}
        aria-label={t('login.captchaRefresh')}
        style={{ height: 40, width: 130, padding: 0, border: 'none', background: 'transparent', cursor: 'pointer' }}
        data-testid="login-captcha-refresh"
      >
        {captcha.data && <img src={captcha.data.image} alt={t('login.captcha')} height={40} width={130} data-testid="login-captcha-image" />}
      </button>
    </div>
  );
}

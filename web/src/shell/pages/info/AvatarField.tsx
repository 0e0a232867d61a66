import { LoadingOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { API, type UploadedFile } from '@console/contract';
import { App, Avatar, Button, Space, Typography, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../api/client';
import { avatarProblem } from './checks';
import { addMessages } from '../../../i18n/lazy';
import { infoPageEn, infoPageZh } from '../../../i18n/infoPage';

addMessages('infoPage', { zh: infoPageZh, en: infoPageEn });

interface AvatarFieldProps {
  value?: string;
  onChange?: (link: string) => void;
}

/**
 * The avatar control of the profile form: checks type and size in the browser (the server checks the
 * content again), uploads through the API client (Blade-Auth, 401 handling, server messages) and puts
 * the stored file's link into the form.
 */
export function AvatarField({ value, onChange }: AvatarFieldProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [uploading, setUploading] = useState(false);

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const problem = avatarProblem(file);
    if (!problem) return true;
    void message.error(t(problem === 'type' ? 'infoPage.avatarType' : 'infoPage.avatarSize'));
    return Upload.LIST_IGNORE;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    const body = new FormData();
    body.append('file', file as Blob);
    setUploading(true);
    try {
      const uploaded = await request<UploadedFile>(API.putFile, { method: 'POST', query: { kind: 'avatar' }, multipart: body });
      onChange?.(uploaded.link);
      void message.success(t('infoPage.avatarUploaded'));
      onSuccess?.(uploaded);
    } catch (err) {
      onError?.(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Space align="center" size={16}>
      <Avatar size={72} src={value || undefined} icon={<UserOutlined />} data-testid="info-avatar" data-src={value ?? ''} />
      <Space direction="vertical" size={4}>
        <span data-testid="info-avatar-upload">
        <Upload
          accept=".jpg,.jpeg,.png,image/jpeg,image/png"
          showUploadList={false}
          maxCount={1}
          beforeUpload={beforeUpload}
          customRequest={customRequest}
        >
          <Button icon={uploading ? <LoadingOutlined /> : <UploadOutlined />} disabled={uploading}>
            {t('infoPage.upload')}
          </Button>
        </Upload>
        </span>
        <Typography.Text type="secondary">{t('infoPage.avatarTip')}</Typography.Text>
      </Space>
    </Space>
  );
}

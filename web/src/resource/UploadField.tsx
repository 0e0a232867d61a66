import { DeleteOutlined, LoadingOutlined, UploadOutlined } from '@ant-design/icons';
import { API, type UploadedFile } from '@console/contract';
import { App, Button, Space, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../api/client';
import { fileName, safeLink } from './links';
import { THUMB_STYLE } from './FieldValue';

export interface UploadFieldProps {
  value?: string | null;
  onChange?: (link: string) => void;
  /** an image: only image files, shown as a thumbnail */
  image?: boolean;
  disabled?: boolean;
  id?: string;
}

/** Whether a chosen file may go up as an image (the server checks the content again). */
export function isImageFile(file: { type?: string; name?: string }): boolean {
  if (file.type) return file.type.startsWith('image/');
  return /\.(png|jpe?g|gif|webp|bmp|svg)$/i.test(file.name ?? '');
}

/**
 * A `file` / `image` field: uploads the chosen file to put-file (through the API client: Blade-Auth,
 * 401 handling, the server's message on failure) and keeps the returned link as the field's value.
 */
export function UploadField({ value, onChange, image = false, disabled, id }: UploadFieldProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [uploading, setUploading] = useState(false);
  const link = value ? safeLink(value) : undefined;

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (!image || isImageFile(file)) return true;
    void message.error(t('resource.uploadImageOnly'));
    return Upload.LIST_IGNORE;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    const body = new FormData();
    body.append('file', file as Blob);
    setUploading(true);
    try {
      // an image field's upload is checked as an image by its content on the server too
      const uploaded = await request<UploadedFile>(API.putFile, { method: 'POST', query: { kind: image ? 'image' : 'file' }, multipart: body });
      onChange?.(uploaded.link);
      void message.success(t('resource.uploaded'));
      onSuccess?.(uploaded);
    } catch (err) {
      // the client has shown the server's message
      onError?.(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Space align="center" size={12} wrap data-testid="resource-upload" data-value={value ?? ''}>
      {link &&
        (image ? (
          <a href={link} target="_blank" rel="noreferrer">
            <img src={link} alt="" style={{ ...THUMB_STYLE, width: 72, height: 72 }} />
          </a>
        ) : (
          <a href={link} target="_blank" rel="noreferrer">
            {fileName(link)}
          </a>
        ))}
      {!link && value && <span>{value}</span>}
      <Upload
        accept={image ? 'image/*' : undefined}
        showUploadList={false}
        maxCount={1}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        disabled={disabled || uploading}
      >
        <Button id={id} icon={uploading ? <LoadingOutlined /> : <UploadOutlined />} disabled={disabled || uploading}>
          {t('resource.upload')}
        </Button>
      </Upload>
      {value && !disabled && (
        <Button type="text" icon={<DeleteOutlined />} aria-label={t('resource.removeFile')} onClick={() => onChange?.('')} />
      )}
    </Space>
  );
}

import { CopyOutlined } from '@ant-design/icons';
import { type ActionOutput } from '@console/contract';
import { emergencyCodeResource, emergencyUnlockResource } from '@console/contract/areas/device/index';
import { Alert, App, Button, Descriptions, List, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDicts } from '../../resource/dict';
import { dictLabel } from '../../resource/dictValues';
import { testId } from '../../testId';

type Issued = ActionOutput<typeof emergencyUnlockResource.actions.generate>;

const CODE_STYLE = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 32, letterSpacing: '0.2em', fontWeight: 600 } as const;

/** The codes just generated, shown this once (the server masks them from then on), with a copy button. */
export function IssuedCodesModal({ sn, codes, onClose }: { sn: string; codes: Issued; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dicts = useDicts(emergencyCodeResource);
  const copy = (value: string) =>
    navigator.clipboard.writeText(value).then(() => void message.success(t('device.emergency.copied')), () => undefined);
  return (
    <Modal open title={t('device.emergency.codesTitle', { sn })} onCancel={onClose} maskClosable={false} width={620} destroyOnHidden
      footer={[
        codes.length > 1 && (
          <Button key="copy-all" icon={<CopyOutlined />} onClick={() => void copy(codes.map((c) => c.code).join('\n'))} {...testId('emergency-copy-all')}>{t('device.emergency.copyAll')}</Button>
        ),
        <Button key="ok" type="primary" onClick={onClose} {...testId('emergency-codes-close')}>{t('common.ok')}</Button>,
      ]}>
      <div {...testId('emergency-issued')}>
        <Alert type="warning" showIcon message={t('device.emergency.codesWarning')} style={{ marginBottom: 16 }} />
        <List
          dataSource={codes}
          renderItem={(c) => (
            <List.Item key={c.id} actions={[
              <Button key="copy" icon={<CopyOutlined />} onClick={() => void copy(c.code)} {...testId('emergency-copy')}>{t('device.emergency.copy')}</Button>,
            ]}>
              <div>
                <Typography.Text style={CODE_STYLE} {...testId('emergency-issued-code')}>{c.code}</Typography.Text>
                <Descriptions size="small" column={1} style={{ marginTop: 4 }} items={[
                  { key: 'kind', label: t('device.emergency.kind'), children: dictLabel(emergencyCodeResource.fields.kind, dicts, c.kind) },
                  { key: 'from', label: t('device.emergency.validFrom'), children: c.validFrom },
                  { key: 'to', label: t('device.emergency.validTo'), children: c.validTo },
                ]} />
              </div>
            </List.Item>
          )}
        />
      </div>
    </Modal>
  );
}

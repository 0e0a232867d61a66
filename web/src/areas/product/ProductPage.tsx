import { CloudSyncOutlined } from '@ant-design/icons';
import { type ActionOutput } from '@console/contract';
import { productResource } from '@console/contract/areas/product/index';
import { Alert, Button, Modal, Radio, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { addMessages } from '../../i18n/lazy';
import { productEn, productZh } from './i18n';
import { useDicts } from '../../resource/dict';
import { dictLabel } from '../../resource/dictValues';
import { ResourcePage } from '../../resource/ResourcePage';
import { usePermissionCheck } from '../../store/permissions';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';

addMessages('product', { zh: productZh, en: productEn });

type SyncResult = ActionOutput<typeof productResource.actions.syncFromCloud>;

/**
 * Products: the generic page plus 从云平台同步 (`sync-product-info`) for who holds `product_cloud_sync` (the server
 * leaves it out of the buttons while it holds no IoT cloud's keys). 清除缓存
 * (`clear-cache`: every instance forgets the products it holds by cloud identity) is the generic page's
 * action button of the menu's `product_clear_cache`.
 */
export function ProductPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const can = usePermissionCheck();
  // the list reloads once the dialog closes: descriptions may have changed
  const [syncing, setSyncing] = useState<{ reload: () => void } | null>(null);
  return (
    <>
      <ResourcePage
        def={def}
        extraToolbar={({ reload }) => [
          can('product_cloud_sync') && (
            <Button key="sync" icon={<CloudSyncOutlined />} onClick={() => setSyncing({ reload })} {...testId('product-cloud-sync')}>{t('product.cloudSync.button')}</Button>
          ),
        ]}
      />
      {syncing && <SyncDialog onClose={() => { syncing.reload(); setSyncing(null); }} />}
    </>
  );
}

function SyncDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const dicts = useDicts(productResource);
  const [vendor, setVendor] = useState(1);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SyncResult | null>(null);
  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      setResult(await callAction(productResource.actions.syncFromCloud, { cloudVendor: vendor }));
    } catch {
      // the client has shown the server's message (a missing setting names it)
    } finally {
      setBusy(false);
    }
  };
  const vendorField = productResource.fields.cloudVendor;
  return (
    <Modal open title={t('product.cloudSync.title')} onCancel={onClose} width={640} destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>{t('common.cancel')}</Button>,
        <Button key="start" type="primary" loading={busy} onClick={() => void run()} {...testId('product-cloud-sync-start')}>{t('product.cloudSync.start')}</Button>,
      ]}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert type="info" showIcon message={t('product.cloudSync.hint')} />
        <Radio.Group value={vendor} onChange={(e) => setVendor(Number(e.target.value))}>
          {[1, 2].map((v) => <Radio key={v} value={v}>{dictLabel(vendorField, dicts, v)}</Radio>)}
        </Radio.Group>
        {result && (
          <>
            <Alert type="success" showIcon message={t('product.cloudSync.result', { fetched: result.fetched, updated: result.updated })} {...testId('product-cloud-sync-result')} />
            {result.unmatched.length > 0 && (
              <Table size="small" rowKey="cloudProductId" dataSource={result.unmatched} pagination={{ pageSize: 8, hideOnSinglePage: true }}
                title={() => t('product.cloudSync.unmatched')}
                columns={[{ title: t('product.cloudSync.cloudProductId'), dataIndex: 'cloudProductId', width: 200 }, { title: t('product.cloudSync.name'), dataIndex: 'name' }]} />
            )}
          </>
        )}
      </Space>
    </Modal>
  );
}

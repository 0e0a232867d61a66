import { SyncOutlined } from '@ant-design/icons';
import { crudPaths, PLATFORM_TENANT, type Page } from '@console/contract';
import { deviceNoticeResource } from '@console/contract/areas/device/index';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Empty, Input, List, Space, Spin, Switch, Table, Typography } from 'antd';
import { useMemo, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { request } from '../../api/client';
import { addMessages } from '../../i18n/lazy';
import { deviceEn, deviceZh } from './i18n';
import { resourceKeys } from '../../resource/api';
import { useDict } from '../../resource/dict';
import type { ResourceRecord } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { useSession } from '../../store/session';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';
import '../../resource/masterDetail.css';
import { confirmDiscard, useUnsavedChanges } from '../../resource/unsavedChanges';
import { mergeNoticeRows, noticeItems, noticesChanged, silentNotice, type NoticeRow } from './noticeRows';

addMessages('device', { zh: deviceZh, en: deviceEn });

type Saved = ResourceRecord<typeof deviceNoticeResource.fields>;
type Product = { id: string; productName: string; noticeCount: number };

const { configSave, dict, productList } = deviceNoticeResource.actions;
const SYNC_CODE = deviceNoticeResource.menu!.buttons!.find((b) => b.action === 'dict')!.code;
/** a product's notice rows: one per notice type, a few dozen at most */
const CONFIG_PAGE = 200;
const productKey = [...resourceKeys.all(deviceNoticeResource.path), 'products'] as const;
const typesKey = [...resourceKeys.all(deviceNoticeResource.path), 'types'] as const;

/**
 * 设备通知配置: the products on the left; on the right the chosen product's notice types (enabled, channels,
 * template), saved at once. The configuration is the platform's: other tenants see it read-only. What was changed
 * and not saved stays while the page is kept (a tab switch), and choosing another product, closing the tab or
 * leaving the console asks first.
 */
export function DeviceNoticePage(_props: CustomPageProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const can = usePermissionCheck();
  const platform = useSession((s) => s.userInfo?.tenant_id === PLATFORM_TENANT);
  const [search, setSearch] = useState('');
  const [product, setProduct] = useState<Product | null>(null);
  // the rows as edited, for the product they were edited for; none until something is changed
  const [draft, setDraft] = useState<{ productId: string; rows: NoticeRow[] } | null>(null);
  const [saving, setSaving] = useState(false);
  const [syncing, setSyncing] = useState(false);

  const products = useQuery({ queryKey: productKey, queryFn: () => callAction(productList, {}) });
  const types = useQuery({ queryKey: typesKey, queryFn: () => callAction(dict, {}) });
  const saved = useQuery({
    queryKey: [...resourceKeys.all(deviceNoticeResource.path), 'config', product?.id],
    queryFn: () => request<Page<Saved>>(crudPaths(deviceNoticeResource).list, { query: { productId_equal: product!.id, size: CONFIG_PAGE, current: 1 } }),
    enabled: product !== null,
    staleTime: 0,
  });
  const channels = useDict('notice_channel');

  // what is saved, as rows; the page shows the draft over it
  const savedRows = useMemo(() => (types.data && saved.data ? mergeNoticeRows(types.data, saved.data.records) : null), [types.data, saved.data]);
  const rows = draft && draft.productId === product?.id ? draft.rows : savedRows;
  const changed = () => draft !== null && savedRows !== null && noticesChanged(savedRows, draft.rows);
  useUnsavedChanges(changed);

  const term = search.trim().toLowerCase();
  const shown = useMemo(() => (products.data ?? []).filter((p) => !term || p.productName.toLowerCase().includes(term)), [products.data, term]);
  const edit = (noticeType: string, patch: Partial<NoticeRow>) => {
    if (!product || !rows) return;
    setDraft({ productId: product.id, rows: rows.map((r) => (r.noticeType === noticeType ? { ...r, ...patch } : r)) });
  };
  const choose = (item: Product) => {
    if (item.id === product?.id) return;
    const go = () => {
      setDraft(null);
      setProduct(item);
    };
    if (changed()) confirmDiscard(modal, t, go);
    else go();
  };

  const save = async () => {
    if (!product || !rows?.length) return;
    const silent = silentNotice(rows);
    if (silent) {
      void message.error(t('device.notice.noChannel', { type: silent.label }));
      return;
    }
    setSaving(true);
    try {
      await callAction(configSave, { productId: product.id, items: noticeItems(rows) });
      void message.success(t('device.notice.saved', { product: product.productName }));
      // the draft gives way once the saved rows are read again (no flash of the old ones)
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all(deviceNoticeResource.path) });
      setDraft(null);
    } catch {
      // the client has shown the server's message (a tenant's 403)
    } finally {
      setSaving(false);
    }
  };

  const sync = async () => {
    setSyncing(true);
    try {
      const answer = await callAction(dict, { sync: '1' });
      void message.success(t('device.notice.synced', { added: answer.reduce((sum, i) => sum + (i.added ?? 0), 0) }));
      void queryClient.invalidateQueries({ queryKey: resourceKeys.all(deviceNoticeResource.path) });
    } catch {
      // shown by the client
    } finally {
      setSyncing(false);
    }
  };

  const readOnly = !platform;
  return (
    <div className="master-detail" data-testid="device-notice-page">
      <Card size="small" title={t('device.notice.products')} className="master-detail-list">
        <Input.Search allowClear placeholder={t('device.notice.productSearch')} value={search} onChange={(e) => setSearch(e.target.value)} {...testId('device-notice-product-search')} />
        <Spin spinning={products.isPending}>
          <List
            size="small"
            dataSource={shown}
            locale={{ emptyText: <Empty description={t('device.notice.noProducts')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
            renderItem={(item) => (
              <List.Item
                className={item.id === product?.id ? 'master-detail-item is-active' : 'master-detail-item'}
                onClick={() => choose(item)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') choose(item);
                }}
                tabIndex={0}
                aria-selected={item.id === product?.id}
                data-testid="device-notice-product"
                data-product={item.id}
              >
                <span>{item.productName}</span>
                <Typography.Text type="secondary">{t('device.notice.configured', { n: item.noticeCount })}</Typography.Text>
              </List.Item>
            )}
          />
        </Spin>
      </Card>
      <Card
        size="small"
        title={product ? product.productName : t('device.notice.type')}
        extra={
          <Space>
            {can(SYNC_CODE) && (
              <Button icon={<SyncOutlined />} loading={syncing} disabled={readOnly} onClick={() => void sync()} {...testId('device-notice-sync')}>{t('device.notice.sync')}</Button>
            )}
            <Button type="primary" loading={saving} disabled={readOnly || !rows?.length} onClick={() => void save()} {...testId('device-notice-save')}>{t('device.notice.save')}</Button>
          </Space>
        }
      >
        {readOnly && <Alert type="info" showIcon message={t('device.notice.platformOnly')} className="master-detail-hint" />}
        {!product ? (
          <Empty description={t('device.notice.pickProduct')} />
        ) : rows === null ? (
          <Spin />
        ) : rows.length === 0 ? (
          <Empty description={t('device.notice.noTypes')} />
        ) : (
          <Table<NoticeRow>
            size="small"
            rowKey="noticeType"
            pagination={false}
            dataSource={rows}
            data-testid="device-notice-config"
            onRow={(r) => ({ 'data-notice-type': r.noticeType }) as HTMLAttributes<HTMLElement>}
            columns={[
              { title: t('device.notice.type'), dataIndex: 'label', width: 180 },
              {
                title: t('device.notice.enabled'), dataIndex: 'enabled', width: 90,
                render: (_v, r) => <Switch checked={r.enabled} disabled={readOnly} onChange={(v) => edit(r.noticeType, { enabled: v })} {...testId('device-notice-enabled')} />,
              },
              {
                title: t('device.notice.channels'), dataIndex: 'channels', width: 220,
                render: (_v, r) => (
                  <>
                    <Checkbox.Group value={r.channels} disabled={readOnly} onChange={(v) => edit(r.noticeType, { channels: v.map(String) })}
                      options={channels.map((c) => ({ value: c.dictKey, label: c.dictValue }))} {...testId('device-notice-channels')} />
                    {r.enabled && r.channels.length === 0 && (
                      <Typography.Text type="danger" className="master-detail-hint" {...testId('device-notice-channel-error')}>{t('device.notice.channelRequired')}</Typography.Text>
                    )}
                  </>
                ),
              },
              {
                title: t('device.notice.template'), dataIndex: 'template',
                render: (_v, r) => (
                  <Input value={r.template} disabled={readOnly} maxLength={500} placeholder={t('device.notice.templateHint')}
                    onChange={(e) => edit(r.noticeType, { template: e.target.value })} {...testId('device-notice-template')} />
                ),
              },
            ]}
          />
        )}
      </Card>
    </div>
  );
}

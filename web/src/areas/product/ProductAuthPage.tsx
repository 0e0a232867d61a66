import { t as text } from '@console/contract';
import { productAuthResource } from '@console/contract/areas/product/index';
import { tenantResource } from '@console/contract/areas/system/index';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Input, List, Spin, Tree, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { useLang } from '../../i18n';
import { addMessages } from '../../i18n/lazy';
import { productEn, productZh } from './i18n';
import { resourceKeys } from '../../resource/api';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';
import '../../resource/masterDetail.css';

addMessages('product', { zh: productZh, en: productEn });

const actions = productAuthResource.actions;

/**
 * 产品授权: the tenants on the left, the product types the picked one may see on the right (checked from
 * `get-auth-pt`, saved with `save-auth-pt`). The platform tenant is not listed: it sees every type.
 */
export function ProductAuthPage({ def }: CustomPageProps) {
  const lang = useLang();
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [tenant, setTenant] = useState<{ tenantId: string; tenantName: string } | null>(null);
  const [checked, setChecked] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);

  const tenants = useQuery({
    queryKey: [...resourceKeys.all(def.path), 'tenants'],
    queryFn: () => callAction(tenantResource.actions.select, {}),
  });
  const types = useQuery({
    queryKey: [...resourceKeys.all(def.path), 'type-tree'],
    queryFn: () => callAction(actions.getPtTree, {}),
  });
  const granted = useQuery({
    queryKey: [...resourceKeys.all(def.path), 'granted', tenant?.tenantId ?? ''],
    queryFn: () => callAction(actions.getAuthPt, { tenantId: tenant!.tenantId }),
    enabled: tenant !== null,
    staleTime: 0,
  });
  useEffect(() => {
    if (granted.data) setChecked(granted.data);
  }, [granted.data]);

  const shown = useMemo(() => {
    const term = search.trim().toLowerCase();
    return (tenants.data ?? []).filter((x) => x.tenantId !== '000000' && (!term || x.tenantName.toLowerCase().includes(term) || x.tenantId.includes(term)));
  }, [tenants.data, search]);

  const pick = (next: { tenantId: string; tenantName: string }) => {
    setTenant(next);
    setChecked(null);
  };

  const save = async () => {
    if (!tenant || checked === null) return;
    setSaving(true);
    try {
      await callAction(actions.saveAuthPt, { tenantId: tenant.tenantId, typeIds: checked.join(',') });
      void message.success(t('product.productAuth.saved', { tenant: tenant.tenantName }));
      void queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.path) });
    } catch {
      // the client has shown the failure
    } finally {
      setSaving(false);
    }
  };

  const loadingTypes = tenant !== null && (types.isPending || granted.isPending || checked === null);
  return (
    <div className="master-detail" data-testid="product-auth">
      <Card size="small" title={t('product.productAuth.tenants')} className="master-detail-list">
        <Input.Search allowClear placeholder={t('product.productAuth.tenantSearch')} value={search} onChange={(e) => setSearch(e.target.value)} {...testId('product-auth-tenant-search')} />
        <Spin spinning={tenants.isPending}>
          <List
            size="small"
            dataSource={shown}
            locale={{ emptyText: <Empty description={t('product.productAuth.noTenants')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
            renderItem={(item) => (
              <List.Item
                className={item.tenantId === tenant?.tenantId ? 'master-detail-item is-active' : 'master-detail-item'}
                onClick={() => pick(item)}
                data-testid="product-auth-tenant"
                data-tenant={item.tenantId}
                aria-selected={item.tenantId === tenant?.tenantId}
                tabIndex={0}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') pick(item);
                }}
              >
                <span>{item.tenantName}</span>
                <Typography.Text type="secondary">{item.tenantId}</Typography.Text>
              </List.Item>
            )}
          />
        </Spin>
      </Card>
      <Card
        size="small"
        className="product-auth-types"
        title={tenant ? `${tenant.tenantName} · ${t('product.productAuth.types')}` : text(def.title, lang)}
        extra={
          <Button type="primary" disabled={!tenant || checked === null} loading={saving} onClick={() => void save()} {...testId('product-auth-save')}>
            {t('product.productAuth.save')}
          </Button>
        }
      >
        <Alert type="info" showIcon message={t('product.productAuth.hint')} className="master-detail-hint" />
        {!tenant ? (
          <Empty description={t('product.productAuth.pickTenant')} />
        ) : loadingTypes ? (
          <Spin />
        ) : types.data!.length === 0 ? (
          <Empty description={t('product.productAuth.noTypes')} />
        ) : (
          <div data-testid="product-auth-tree" data-tenant={tenant.tenantId}>
            <Typography.Paragraph type="secondary">{t('product.productAuth.summary', { n: checked!.length, total: types.data!.length })}</Typography.Paragraph>
            <Tree
              checkable
              selectable={false}
              treeData={types.data}
              checkedKeys={checked!}
              onCheck={(next) => setChecked((Array.isArray(next) ? next : next.checked).map(String))}
            />
          </div>
        )}
      </Card>
    </div>
  );
}

import { PLATFORM_TENANT, t as text, type Lang, type ResourceDef } from '@console/contract';
import { tenantPackageResource, tenantResource } from '@console/contract/areas/system/index';
import { ProForm, ProFormDateTimePicker, ProFormDigit, ProFormText, type ProColumns } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Modal, Space, Tag, Typography } from 'antd';
import { md5 } from 'js-md5';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { useLang } from '../../i18n';
import { detailQuery, resourceKeys } from '../../resource/api';
import { CellText } from '../../resource/CellText';
import { WIRE_DATETIME } from '../../resource/display';
import { RefSelect } from '../../resource/RefSelect';
import { splitIds } from '../../resource/refOptions';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ResourceRecord } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import type { CustomPageProps } from '../../shell/area';
import { ActionDialog } from '../../dialog/ActionDialog';
import { isExpired } from './tenantExpiry';
import { useTenantText, type TenantText } from './tenantText';

type Row = ResourceRecord;

/** The label of one of the definition's extra buttons (授权配置, 套餐配置, 数据源配置), in the UI language. */
function buttonLabel(def: ResourceDef, code: string, lang: Lang): string {
  const button = def.menu?.buttons?.find((b) => b.code === code);
  return button ? text(button.name, lang) : code;
}

function expiryCell(value: unknown, words: TenantText) {
  if (typeof value !== 'string' || value === '') return <Typography.Text type="secondary">{words.noExpiry}</Typography.Text>;
  return (
    <Space size={4}>
      <CellText text={value} />
      {isExpired(value) && (
        <Tag color="red" data-testid="tenant-expired">
          {words.expired}
        </Tag>
      )}
    </Space>
  );
}

type Dialog = { kind: 'setting'; rows: readonly Row[] } | { kind: 'package'; row: Row } | { kind: 'datasource'; row: Row } | null;

/**
 * Tenants (the platform administrator's): the generic page — the 6-digit tenant id is made by the server on
 * create and shown then — plus the licence (授权配置: accounts and expiry of the selected tenants), the
 * package (套餐配置) and the data source (数据源配置) of a tenant; the table tells expired tenants and
 * unlimited account quotas.
 */
export function TenantPage({ def }: CustomPageProps) {
  const lang = useLang();
  const { t } = useTranslation();
  const words = useTenantText();
  const { message } = App.useApp();
  const can = usePermissionCheck();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reloadTable, setReloadTable] = useState<() => void>(() => () => undefined);
  const close = useCallback(() => setDialog(null), []);
  const changed = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.path) });
    reloadTable();
  }, [queryClient, def.path, reloadTable]);

  const columnsOverride = useMemo(() => {
    const patches: Record<string, Partial<ProColumns<Row>>> = {
      accountNumber: {
        render: (_dom, record) => <CellText text={record.accountNumber === -1 ? words.unlimited : String(record.accountNumber ?? '')} />,
      },
      expireTime: { width: 220, render: (_dom, record) => expiryCell(record.expireTime, words) },
      // view, edit, delete and the two row settings
      option: { width: 360 },
    };
    // the licence (expiry, accounts, package) right after the name: in view without scrolling sideways
    const FIRST = ['tenantId', 'tenantName', 'expireTime', 'accountNumber', 'packageId'];
    const rank = (c: ProColumns<Row>) => {
      const i = FIRST.indexOf(String(c.key));
      return i === -1 ? FIRST.length : i;
    };
    return (columns: ProColumns<Row>[]) => columns
      .map((c, i) => ({ c: { ...c, ...patches[String(c.key)] } as ProColumns<Row>, i }))
      .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
      .map(({ c }) => c);
  }, [words]);

  const [issued, setIssued] = useState<{ tenantId: string; password: string }>();
  const onSaved = useCallback((answer: unknown, mode: 'create' | 'edit') => {
    const created = mode === 'create' && answer && typeof answer === 'object' ? answer as { tenantId?: unknown; adminPassword?: unknown } : {};
    const tenantId = created.tenantId;
    if (typeof tenantId === 'string') {
      void message.success({ content: <span data-testid="tenant-created" data-tenant-id={tenantId}>{words.tenantCreated(tenantId)}</span>, duration: 8 });
      if (typeof created.adminPassword === 'string') setIssued({ tenantId, password: created.adminPassword });
    }
  }, [message, words]);
  // the administrator's password leaves the form as its MD5 (empty: the server makes one and answers it once)
  const formOverride = useMemo(() => ({
    toSubmit: (values: Record<string, unknown>) => {
      const password = typeof values.adminPassword === 'string' ? values.adminPassword : '';
      const { adminPassword: _omit, ...rest } = values;
      return password === '' ? rest : { ...rest, adminPassword: md5(password) };
    },
  }), []);

  return (
    <>
      <ResourcePage
        def={def}
        columnsOverride={columnsOverride}
        formOverride={formOverride}
        onSaved={onSaved}
        extraToolbar={({ selectedRows, reload }) => [
          can('tenant_setting') && (
            <Button
              key="setting"
              data-testid="tenant-setting"
              onClick={() => {
                setReloadTable(() => reload);
                if (selectedRows.length === 0) void message.warning(t('resource.selectAtLeastOne'));
                else if (selectedRows.length > 1) setDialog({ kind: 'setting', rows: selectedRows });
                // one tenant: its values as they are now (the selection keeps the rows as they were when picked)
                else void queryClient.fetchQuery(detailQuery<Row>(def, selectedRows[0]!.id)).then((row) => setDialog({ kind: 'setting', rows: [row] }), () => undefined);
              }}
            >
              {buttonLabel(def, 'tenant_setting', lang)}
            </Button>
          ),
        ]}
        extraRowActions={(record, { reload }) => [
          can('tenant_datasource') && (
            <Button key="datasource" type="link" size="small" data-testid="tenant-row-datasource" onClick={() => { setReloadTable(() => reload); setDialog({ kind: 'datasource', row: record }); }}>
              {buttonLabel(def, 'tenant_datasource', lang)}
            </Button>
          ),
          // the platform is never limited by a package
          can('tenant_package_setting') && record.tenantId !== PLATFORM_TENANT && (
            <Button key="package" type="link" size="small" data-testid="tenant-row-package" onClick={() => { setReloadTable(() => reload); setDialog({ kind: 'package', row: record }); }}>
              {buttonLabel(def, 'tenant_package_setting', lang)}
            </Button>
          ),
        ]}
      />
      {issued && <AdminPasswordDialog issued={issued} onClose={() => setIssued(undefined)} />}
      {dialog?.kind === 'setting' && <SettingDialog def={def} rows={dialog.rows} onClose={close} onDone={changed} />}
      {dialog?.kind === 'package' && <PackageDialog def={def} row={dialog.row} onClose={close} onDone={changed} />}
      {dialog?.kind === 'datasource' && <DatasourceDialog def={def} row={dialog.row} onClose={close} onDone={changed} />}
    </>
  );
}

/** The generated password of a new tenant's administrator: shown this once, never answered again. */
function AdminPasswordDialog({ issued, onClose }: { issued: { tenantId: string; password: string }; onClose: () => void }) {
  const words = useTenantText();
  return (
    <Modal open title={words.adminPasswordTitle} closable={false} maskClosable={false} keyboard={false}
      footer={<Button type="primary" onClick={onClose} data-testid="tenant-admin-password-close">{words.adminPasswordDone}</Button>}>
      <div data-testid="tenant-admin-password">
        <Alert type="warning" showIcon message={words.adminPasswordOnce} style={{ marginBottom: 16 }} />
        <Descriptions column={1} size="small" bordered items={[
          { key: 'tenant', label: words.adminPasswordTenant, children: issued.tenantId },
          { key: 'account', label: words.adminPasswordAccount, children: 'admin' },
          {
            key: 'password', label: words.adminPasswordLabel,
            children: <Typography.Text code copyable={{ text: issued.password }} data-testid="tenant-admin-password-value">{issued.password}</Typography.Text>,
          },
        ]} />
      </div>
    </Modal>
  );
}

interface DialogProps {
  def: ResourceDef;
  onClose: () => void;
  /** after a successful call: the table reloads */
  onDone: () => void;
}

function fieldLabel(def: ResourceDef, name: string, lang: Lang): string {
  const f = def.fields[name];
  return f ? text(f.label, lang) : name;
}

/** 授权配置: the account quota (-1 unlimited) and the expiry of the selected tenants, set together. */
function SettingDialog({ def, rows, onClose, onDone }: DialogProps & { rows: readonly Row[] }) {
  const lang = useLang();
  const { t } = useTranslation();
  const words = useTenantText();
  const { message } = App.useApp();
  const one = rows.length === 1 ? rows[0] : undefined;
  const accountLabel = fieldLabel(def, 'accountNumber', lang);
  const accountHelp = def.fields.accountNumber?.help;
  return (
    <ActionDialog
      title={buttonLabel(def, 'tenant_setting', lang)}
      testid="tenant-setting-form"
      open
      onClose={onClose}
      initialValues={{ accountNumber: one?.accountNumber ?? -1, expireTime: one?.expireTime ?? undefined }}
      onSubmit={async (values) => {
        await callAction(tenantResource.actions.setting, {
          ids: rows.map((r) => r.id).join(','),
          accountNumber: Number(values.accountNumber),
          expireTime: typeof values.expireTime === 'string' ? values.expireTime : '',
        });
        void message.success(words.saved);
        onDone();
      }}
    >
      <Typography.Paragraph type="secondary" data-testid="tenant-setting-tenants">
        {words.selectedTenants(rows.length)}: {rows.map((r) => `${String(r.tenantName ?? '')} (${String(r.tenantId ?? '')})`).join(', ')}
      </Typography.Paragraph>
      <ProFormDigit
        name="accountNumber"
        label={accountLabel}
        min={-1}
        max={1_000_000}
        tooltip={accountHelp ? text(accountHelp, lang) : undefined}
        rules={[{ required: true, message: t('resource.pleaseEnter', { label: accountLabel }) }]}
        fieldProps={{ precision: 0 }}
      />
      <ProFormDateTimePicker
        name="expireTime"
        label={fieldLabel(def, 'expireTime', lang)}
        extra={words.expireHelp}
        placeholder={t('resource.pleaseSelect', { label: fieldLabel(def, 'expireTime', lang) })}
        fieldProps={{ format: WIRE_DATETIME, style: { width: '100%' } }}
      />
    </ActionDialog>
  );
}

/** 套餐配置: the tenant's current package (package-detail) and a package to put it on. */
function PackageDialog({ def, row, onClose, onDone }: DialogProps & { row: Row }) {
  const lang = useLang();
  const words = useTenantText();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const tenantId = String(row.tenantId ?? '');
  const detail = useQuery({
    queryKey: [...resourceKeys.all(def.path), 'package-detail', tenantId],
    queryFn: () => callAction(tenantResource.actions.packageDetail, { tenantId }),
    staleTime: 0,
  });
  const current = detail.data;
  // the packages to choose from as they are now (one may have been made elsewhere a moment ago)
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: resourceKeys.all(tenantPackageResource.path) });
  }, [queryClient]);
  return (
    <ActionDialog
      title={`${buttonLabel(def, 'tenant_package_setting', lang)} · ${String(row.tenantName ?? '')} (${tenantId})`}
      testid="tenant-package-form"
      open
      width={620}
      onClose={onClose}
      initialValues={{ packageId: row.packageId ?? '' }}
      onSubmit={async (values) => {
        await callAction(tenantResource.actions.packageSetting, { tenantId, packageId: typeof values.packageId === 'string' ? values.packageId : '' });
        void message.success(words.saved);
        onDone();
      }}
    >
      <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }} data-testid="tenant-package-current" data-package-id={current?.id ?? ''}>
        <Descriptions.Item label={words.currentPackage}>
          {detail.isPending ? '…' : current ? `${current.packageName} · ${words.menusOf(splitIds(current.menuId).length)}` : words.noPackage}
        </Descriptions.Item>
        {current?.remark ? <Descriptions.Item label={text(tenantPackageResource.fields.remark.label, lang)}>{current.remark}</Descriptions.Item> : null}
      </Descriptions>
      <ProForm.Item name="packageId" label={words.packageLabel} extra={words.packageHelp}>
        <RefSelect refCode="tenant_package" currentLabel={row.packageIdName} placeholder={words.packagePlaceholder} id="tenant-package-form_packageId" />
      </ProForm.Item>
    </ActionDialog>
  );
}

/** 数据源配置: a data source id (there is no data source screen yet), empty for the default. */
function DatasourceDialog({ def, row, onClose, onDone }: DialogProps & { row: Row }) {
  const lang = useLang();
  const words = useTenantText();
  const { message } = App.useApp();
  const tenantId = String(row.tenantId ?? '');
  return (
    <ActionDialog
      title={`${buttonLabel(def, 'tenant_datasource', lang)} · ${String(row.tenantName ?? '')} (${tenantId})`}
      testid="tenant-datasource-form"
      open
      onClose={onClose}
      initialValues={{ datasourceId: row.datasourceId ?? '' }}
      onSubmit={async (values) => {
        await callAction(tenantResource.actions.datasource, { tenantId, datasourceId: String(values.datasourceId ?? '').trim() });
        void message.success(words.saved);
        onDone();
      }}
    >
      <ProFormText
        name="datasourceId"
        label={words.datasourceLabel}
        placeholder={words.datasourcePlaceholder}
        extra={words.datasourceHelp}
        fieldProps={{ maxLength: 19, inputMode: 'numeric' }}
        rules={[{ pattern: /^\s*\d{0,19}\s*$/, message: words.datasourceInvalid }]}
      />
    </ActionDialog>
  );
}

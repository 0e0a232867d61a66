import { ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { crudPaths, type Page } from '@console/contract';
import { factoryResource, OPERATOR_ACCOUNT, stationResource } from '@console/contract/areas/production/index';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Table, Typography } from 'antd';
import { md5 } from 'js-md5';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { request } from '../../api/client';
import { addMessages } from '../../i18n/lazy';
import { productionEn, productionZh } from './i18n';
import { resourceKeys } from '../../resource/api';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ResourceRecord } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';
import { ActionDialog } from '../../dialog/ActionDialog';
import { confirmInDialog } from '../../dialog/dialogFocus';

addMessages('production', { zh: productionZh, en: productionEn });

type Rec = ResourceRecord<typeof factoryResource.fields>;
type Operator = { id: string; account: string; realName: string | null; stationIds: string; stationNames: string };

/** Factories: the generic page (stations open from each row, `within`) plus each factory's station operators. */
export function FactoryPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const can = usePermissionCheck();
  const [factory, setFactory] = useState<Rec | null>(null);
  return (
    <>
      <ResourcePage
        def={def}
        extraRowActions={(row) => [
          <Button key="operators" type="link" size="small" onClick={() => setFactory(row as Rec)} {...testId('factory-row-operators')}>{t('production.operators.button')}</Button>,
        ]}
      />
      <Drawer open={factory !== null} onClose={() => setFactory(null)} width="min(900px, 92vw)" destroyOnHidden
        title={t('production.operators.title', { factory: factory?.factoryName ?? '' })}>
        {factory && <Operators factory={factory} canAdd={can('station_add')} canEdit={can('station_edit')} />}
        {factory && <StationKeys factory={factory} canIssue={can('station_edit')} />}
      </Drawer>
    </>
  );
}

function Operators({ factory, canAdd, canEdit }: { factory: Rec; canAdd: boolean; canEdit: boolean }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const key = [...resourceKeys.all(factoryResource.path), 'operators', factory.id];
  const operators = useQuery({ queryKey: key, queryFn: () => callAction(factoryResource.actions.operators, { factoryId: factory.id }) });
  const stations = useQuery({
    queryKey: [...resourceKeys.all(stationResource.path), 'of-factory', factory.id],
    queryFn: () => request<Page<{ id: string; stationName: string; stationCode: string }>>(crudPaths(stationResource).list, { query: { factoryId: factory.id, size: 200 } }),
  });
  const [editing, setEditing] = useState<Operator | 'new' | null>(null);
  const remove = (op: Operator) => confirmInDialog(modal, {
    title: t('list.deleteTitle'), content: t('production.operators.removeConfirm', { account: op.account }),
    okText: t('common.ok'), cancelText: t('common.cancel'), okButtonProps: { danger: true, ...testId('confirm-ok') }, cancelButtonProps: testId('confirm-cancel'),
    onOk: async () => {
      await callAction(factoryResource.actions.removeOperators, { ids: op.id });
      void message.success(t('production.operators.removed'));
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const options = (stations.data?.records ?? []).map((s) => ({ label: `${s.stationName} (${s.stationCode})`, value: s.id }));
  return (
    <div data-testid="factory-operators">
      <Alert type="info" showIcon message={t('production.operators.hint')} style={{ marginBottom: 12 }} />
      {canAdd && <Button type="primary" onClick={() => setEditing('new')} style={{ marginBottom: 12 }} {...testId('operator-add')}>{t('production.operators.add')}</Button>}
      <Table<Operator>
        size="small"
        rowKey="id"
        loading={operators.isPending}
        dataSource={operators.data ?? []}
        pagination={false}
        locale={{ emptyText: t('production.operators.none') }}
        columns={[
          { title: t('production.operators.account'), dataIndex: 'account', width: 160 },
          { title: t('production.operators.realName'), dataIndex: 'realName', width: 140 },
          { title: t('production.operators.stations'), dataIndex: 'stationNames' },
          ...(canEdit ? [{
            title: '', key: 'edit', width: 130, render: (_: unknown, op: Operator) => (
              <>
                <Button type="link" size="small" onClick={() => setEditing(op)}>{t('production.operators.edit')}</Button>
                <Button type="link" size="small" danger onClick={() => remove(op)} {...testId('operator-remove')}>{t('production.operators.remove')}</Button>
              </>
            ),
          }] : []),
        ]}
      />
      {editing && (
        <ActionDialog
          open
          testid="operator-form"
          title={editing === 'new' ? t('production.operators.add') : `${t('production.operators.edit')} · ${editing.account}`}
          initialValues={editing === 'new' ? { stationIds: [] } : { account: editing.account, realName: editing.realName, stationIds: editing.stationIds ? editing.stationIds.split(',') : [] }}
          onClose={() => setEditing(null)}
          onSubmit={async (values) => {
            const password = String(values.password ?? '');
            await callAction(factoryResource.actions.submitOperator, {
              ...(editing === 'new' ? {} : { id: editing.id }),
              factoryId: factory.id,
              account: String(values.account ?? ''),
              realName: String(values.realName ?? ''),
              stationIds: ((values.stationIds as string[] | undefined) ?? []).join(','),
              ...(password ? { password: md5(password) } : {}),
            });
            void message.success(t('production.operators.saved'));
            void queryClient.invalidateQueries({ queryKey: key });
          }}
        >
          <ProFormText name="account" label={t('production.operators.account')} disabled={editing !== 'new'}
            rules={[{ required: true, pattern: OPERATOR_ACCOUNT, message: t('production.operators.accountRule') }]} />
          <ProFormText.Password name="password" label={t('production.operators.password')}
            placeholder={editing === 'new' ? undefined : t('production.operators.passwordKeep')}
            rules={[{ required: editing === 'new', min: 6, message: t('production.operators.passwordRule') }]} />
          <ProFormText name="realName" label={t('production.operators.realName')} rules={[{ required: true, whitespace: true, message: t('production.operators.realNameRule') }]} />
          <ProFormSelect name="stationIds" label={t('production.operators.stations')} mode="multiple" options={options} />
        </ActionDialog>
      )}
    </div>
  );
}

type StationRow = { id: string; stationName: string; stationCode: string; stationType: number; keyTime: string | null };

/** The factory's stations and their keys: a key is issued (or issued again, revoking the last) and shown once. */
function StationKeys({ factory, canIssue }: { factory: Rec; canIssue: boolean }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const key = [...resourceKeys.all(stationResource.path), 'keys-of-factory', factory.id];
  const stations = useQuery({
    queryKey: key,
    queryFn: () => request<Page<StationRow>>(crudPaths(stationResource).list, { query: { factoryId: factory.id, size: 200 } }),
  });
  const [shown, setShown] = useState<{ station: string; code: string; key: string } | null>(null);
  const issue = (s: StationRow) => modal.confirm({
    title: s.keyTime ? t('production.stationKeys.reissue') : t('production.stationKeys.issue'),
    content: t('production.stationKeys.confirm', { station: s.stationName }),
    okText: t('common.ok'),
    cancelText: t('common.cancel'),
    okButtonProps: testId('confirm-ok'),
    onOk: () => callAction(stationResource.actions.issueKey, { id: s.id }).then(
      (answer) => {
        setShown({ station: s.stationName, code: answer.stationCode, key: answer.key });
        void queryClient.invalidateQueries({ queryKey: resourceKeys.all(stationResource.path) });
      },
      () => undefined,
    ),
  });
  return (
    <div data-testid="factory-station-keys" style={{ marginTop: 24 }}>
      <Typography.Title level={5}>{t('production.stationKeys.title')}</Typography.Title>
      <Alert type="info" showIcon message={t('production.stationKeys.hint')} style={{ marginBottom: 12 }} />
      <Table<StationRow>
        size="small"
        rowKey="id"
        loading={stations.isPending}
        dataSource={stations.data?.records ?? []}
        pagination={false}
        columns={[
          { title: t('production.stationKeys.station'), key: 'station', render: (_: unknown, s: StationRow) => `${s.stationName} (${s.stationCode})` },
          { title: t('production.stationKeys.issuedAt'), dataIndex: 'keyTime', width: 180, render: (v: string | null) => v ?? t('production.stationKeys.never') },
          ...(canIssue ? [{
            title: '', key: 'issue', width: 110,
            render: (_: unknown, s: StationRow) => (
              <Button type="link" size="small" onClick={() => issue(s)} {...testId('station-key-issue')}>
                {s.keyTime ? t('production.stationKeys.reissue') : t('production.stationKeys.issue')}
              </Button>
            ),
          }] : []),
        ]}
      />
      {shown && (
        <Alert
          type="warning"
          showIcon
          closable
          onClose={() => setShown(null)}
          style={{ marginTop: 12 }}
          message={t('production.stationKeys.shownOnce', { station: shown.station })}
          description={(
            <>
              <Typography.Paragraph copyable code {...testId('station-key-value')}>{shown.key}</Typography.Paragraph>
              <Typography.Text type="secondary">{t('production.stationKeys.header')}</Typography.Text>
              <Typography.Paragraph copyable code>{`Authorization: Station ${shown.code}:${shown.key}`}</Typography.Paragraph>
            </>
          )}
        />
      )}
    </div>
  );
}

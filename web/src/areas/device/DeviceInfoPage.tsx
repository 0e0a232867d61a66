import { type ActionOutput } from '@console/contract';
import { deviceControlResource, deviceInfoResource, deviceValueItems, firmwareResource, otaProgressResource } from '@console/contract/areas/device/index';
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Card, Descriptions, Empty, Input, Spin, Table, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { ApiError } from '../../api/client';
import { useLang } from '../../i18n';
import { addMessages } from '../../i18n/lazy';
import { deviceEn, deviceZh } from './i18n';
import { useDicts } from '../../resource/dict';
import { dictLabel } from '../../resource/dictValues';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ColumnsOverride, ResourceRecord } from '../../resource/types';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';

addMessages('device', { zh: deviceZh, en: deviceEn });

type Info = ActionOutput<typeof deviceInfoResource.actions.info>;
type Row = ResourceRecord<typeof deviceInfoResource.fields>;

/** A value or the dash tables use for none. */
const shown = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '-' : v);

/**
 * 设备查询: one device by SN (`device/info?deviceSn=`: product, batch, cloud, online state, versions,
 * properties, activation, burning, last OTA, recent control commands), above the devices' state rows (the
 * generic list), whose SNs fill the search.
 */
export function DeviceInfoPage(_props: CustomPageProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [sn, setSn] = useState('');
  const info = useQuery({
    queryKey: ['device-info', sn],
    // the card says what went wrong (404: no such device, 400: a bad SN), not a toast
    queryFn: () => callAction(deviceInfoResource.actions.info, { deviceSn: sn }, { silent: true }),
    enabled: sn !== '',
    retry: false,
    staleTime: 0,
  });
  const { refetch } = info;
  const lookUp = useCallback((value: string) => {
    const v = value.trim().toUpperCase();
    setTyped(v);
    setSn(v);
    if (v !== '' && v === sn) void refetch();
  }, [sn, refetch]);
  const columnsOverride = useMemo<ColumnsOverride<Row>>(() => ({
    sn: {
      render: (_dom, row) => (
        <Typography.Link {...testId('device-info-sn')} onClick={() => lookUp(String(row.sn ?? ''))}>{row.sn}</Typography.Link>
      ),
    },
  }), [lookUp]);

  return (
    <div data-testid="device-info-page">
      <Card style={{ marginBottom: 16 }}>
        <Input.Search value={typed} onChange={(e) => setTyped(e.target.value)} onSearch={lookUp} placeholder={t('device.info.search')}
          enterButton={t('device.info.lookup')} allowClear maxLength={32} style={{ maxWidth: 480 }} {...testId('device-info-search')} />
        <div style={{ marginTop: 16 }} {...testId('device-info-card')}>
          {sn === '' ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('device.info.prompt')} />
          ) : info.isError ? (
            <Alert type={info.error instanceof ApiError && (info.error.code === 404 || info.error.code === 400) ? 'warning' : 'error'} showIcon
              message={t('device.info.notFound', { msg: info.error.message })} {...testId('device-info-error')} />
          ) : info.data ? (
            <DeviceCard info={info.data} />
          ) : (
            <Spin />
          )}
        </div>
      </Card>
      <ResourcePage def={deviceInfoResource} columnsOverride={columnsOverride} fitWindow={false} />
    </div>
  );
}

function DeviceCard({ info }: { info: Info }) {
  const { t } = useTranslation();
  const lang = useLang();
  const otaDicts = useDicts(otaProgressResource);
  const controlDicts = useDicts(deviceControlResource);
  const firmwareDicts = useDicts(firmwareResource);
  const loc = info.activationLocation;
  const ota = info.lastOta;
  const versions = Object.entries(info.versions);
  // labelled values in the reader's language (a lock's state, its battery), an unknown one under its own name
  const properties = deviceValueItems(info.properties, lang);
  return (
    <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} title={info.sn} {...testId('device-info-descriptions')}
      items={[
        { key: 'product', label: t('device.info.product'), children: <span {...testId('device-info-product')}>{shown(info.productName ?? info.productId)}</span> },
        { key: 'batch', label: t('device.info.batch'), children: <span {...testId('device-info-batch')}>{shown(info.batchNo)}</span> },
        { key: 'mac', label: t('device.info.mac'), children: shown(info.mac) },
        { key: 'reportedMac', label: t('device.info.reportedMac'), children: <span {...testId('device-info-reported-mac')}>{shown(info.reportedMac)}</span> },
        { key: 'imei', label: t('device.info.imei'), children: <span {...testId('device-info-imei')}>{shown(info.imei)}</span> },
        { key: 'cloud', label: t('device.info.cloud'), children: shown(info.cloudVendorName) },
        { key: 'deviceName', label: t('device.info.deviceName'), children: shown(info.deviceName) },
        {
          key: 'online', label: t('device.info.online'),
          children: <Badge status={info.online ? 'success' : 'default'} text={t(info.online ? 'device.info.isOnline' : 'device.info.isOffline')} {...testId('device-info-online')} />,
        },
        { key: 'lastSeen', label: t('device.info.lastSeen'), children: shown(info.lastSeenTime) },
        { key: 'address', label: t('device.info.address'), children: shown(info.address) },
        {
          key: 'versions', label: t('device.info.versions'),
          children: versions.length ? versions.map(([k, v]) => <div key={k}>{dictLabel(firmwareResource.fields.moduleType, firmwareDicts, k)}: {v}</div>) : t('device.info.none'),
        },
        { key: 'activation', label: t('device.info.activation'), children: shown(info.activationTime) },
        {
          key: 'activationLocation', label: t('device.info.activationLocation'),
          children: loc ? `${loc.lat}, ${loc.lng}${loc.regionCode ? ` (${loc.regionCode})` : ''}` : '-',
        },
        { key: 'burnTime', label: t('device.info.burnTime'), children: shown(info.burnTime) },
        {
          key: 'lastOta', label: t('device.info.lastOta'), span: 'filled',
          children: ota ? `${dictLabel(otaProgressResource.fields.state, otaDicts, ota.state)}${ota.toVersion ? ` → ${ota.toVersion}` : ''}${ota.lastReportTime ? ` · ${ota.lastReportTime}` : ''}` : t('device.info.none'),
        },
        {
          key: 'properties', label: t('device.info.properties'), span: 'filled',
          children: properties.length ? (
            <Table size="small" rowKey="key" pagination={false} dataSource={properties}
              columns={[{ title: t('device.info.property'), dataIndex: 'label', width: 200 }, { title: t('device.info.value'), dataIndex: 'value' }]} {...testId('device-info-properties')} />
          ) : t('device.info.none'),
        },
        {
          key: 'controls', label: t('device.info.controls'), span: 'filled',
          children: info.controls.length ? (
            <Table size="small" rowKey={(r) => `${r.createTime}-${r.action}`} pagination={false} dataSource={info.controls}
              columns={[
                { title: t('device.info.action'), dataIndex: 'action', width: 160, render: (v: string) => dictLabel(deviceControlResource.fields.action, controlDicts, v) },
                { title: t('device.info.state'), dataIndex: 'state', width: 120, render: (v: string) => dictLabel(deviceControlResource.fields.state, controlDicts, v) },
                { title: t('device.info.time'), dataIndex: 'createTime' },
              ]} />
          ) : t('device.info.none'),
        },
      ]} />
  );
}

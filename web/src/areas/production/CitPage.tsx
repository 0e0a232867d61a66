import { citDictResource, citResource } from '@console/contract/areas/production/index';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Modal, Spin, Table, Tag, Tree, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addMessages } from '../../i18n/lazy';
import { productionEn, productionZh } from './i18n';
import { resourceApi, resourceKeys } from '../../resource/api';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ResourceRecord } from '../../resource/types';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';
import './cit.css';

addMessages('production', { zh: productionZh, en: productionEn });

type DictRow = ResourceRecord;
type Rec = ResourceRecord<typeof citResource.fields>;
type ItemResult = { value: string; pass: boolean; standard: string | null };
interface ItemNode { key: string; title: string; children?: ItemNode[] }

function toNodes(rows: readonly DictRow[]): ItemNode[] {
  return rows.map((r) => ({ key: String(r.code), title: `${r.name} (${r.code})${r.standard ? ` · ${r.standard}` : ''}`, children: r.children?.length ? toNodes(r.children) : undefined }));
}

function namesOf(rows: readonly DictRow[], into = new Map<string, string>()): Map<string, string> {
  for (const r of rows) {
    into.set(String(r.code), String(r.name));
    if (r.children) namesOf(r.children, into);
  }
  return into;
}

/**
 * CIT records beside the CIT item tree: picking an item shows the records that hold it (`itemCode`), each
 * record's items open as a table of measured value, standard and verdict.
 */
export function CitPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const [itemCode, setItemCode] = useState<string | undefined>(undefined);
  const [shown, setShown] = useState<Rec | null>(null);
  const dict = useQuery({
    queryKey: [...resourceKeys.all(citDictResource.path), 'cit-tree'],
    queryFn: () => resourceApi<DictRow>(citDictResource).treeList({}),
  });
  const nodes = useMemo(() => toNodes(dict.data ?? []), [dict.data]);
  const names = useMemo(() => namesOf(dict.data ?? []), [dict.data]);
  const params = useMemo(() => (itemCode ? { itemCode } : undefined), [itemCode]);
  return (
    <div className="cit-page" data-testid="cit-page">
      <Card size="small" title={t('production.cit.items')} className="cit-tree"
        extra={<Button size="small" type="link" onClick={() => setItemCode(undefined)} disabled={!itemCode} {...testId('cit-all')}>{t('production.cit.all')}</Button>}>
        <Typography.Paragraph type="secondary">{t('production.cit.itemHint')}</Typography.Paragraph>
        <Spin spinning={dict.isPending}>
          {nodes.length === 0 && !dict.isPending ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> : (
            <Tree treeData={nodes} defaultExpandAll selectedKeys={itemCode ? [itemCode] : []} onSelect={(keys) => setItemCode(keys[0] === undefined ? undefined : String(keys[0]))} {...testId('cit-tree')} />
          )}
        </Spin>
      </Card>
      <div className="cit-records">
        <ResourcePage
          def={def}
          params={params}
          extraRowActions={(row) => [
            <Button key="items" type="link" size="small" onClick={() => setShown(row as Rec)} {...testId('cit-row-items')}>{t('production.cit.detail')}</Button>,
          ]}
        />
      </div>
      <Modal open={shown !== null} onCancel={() => setShown(null)} footer={null} width={720} destroyOnHidden title={t('production.cit.detailTitle', { sn: shown?.deviceSn ?? '' })}>
        {shown && (
          <Table<{ code: string } & ItemResult>
            size="small"
            rowKey="code"
            pagination={false}
            dataSource={Object.entries((shown.items ?? {}) as unknown as Record<string, ItemResult>).map(([code, r]) => ({ code, ...r }))}
            columns={[
              { title: t('production.cit.code'), dataIndex: 'code', width: 150 },
              { title: t('production.cit.name'), key: 'name', render: (_v, r) => names.get(r.code) ?? '-' },
              { title: t('production.cit.value'), dataIndex: 'value', width: 120 },
              { title: t('production.cit.standard'), dataIndex: 'standard', width: 120 },
              { title: t('production.cit.verdict'), dataIndex: 'pass', width: 90, render: (pass: boolean) => <Tag color={pass ? 'success' : 'error'}>{pass ? t('production.cit.pass') : t('production.cit.fail')}</Tag> },
            ]}
            {...testId('cit-items')}
          />
        )}
      </Modal>
    </div>
  );
}

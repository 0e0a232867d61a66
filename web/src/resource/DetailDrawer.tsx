import { t as text, type ResourceDef } from '@console/contract';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../i18n';
import { request } from '../api/client';
import { detailQuery, resourceKeys } from './api';
import { useDicts } from './dict';
import { FieldValue } from './FieldValue';
import { detailFields } from './fieldsOf';
import { RichTextView } from './RichTextView';
import type { ResourceRecord } from './types';

export interface DetailDrawerProps {
  def: ResourceDef;
  /** the record to show; null closes the drawer */
  id: string | null;
  onClose: () => void;
  /** answers `?id=` with the record instead of `{def.path}/detail` (the notice bell's own detail call) */
  detailUrl?: string;
}

/** Every field of one record (from `detail`) with its label; dictionary labels resolved, rich text rendered. */
export function DetailDrawer({ def, id, onClose, detailUrl }: DetailDrawerProps) {
  const lang = useLang();
  const { t } = useTranslation();
  const dicts = useDicts(def);
  // keep the last record on screen while the drawer slides out
  const [shownId, setShownId] = useState(id);
  if (id !== null && id !== shownId) setShownId(id);
  const viaEngine = detailQuery<ResourceRecord>(def, shownId ?? '');
  const detail = useQuery<ResourceRecord, Error, ResourceRecord, readonly unknown[]>({
    queryKey: detailUrl ? [...resourceKeys.all(def.path), 'detail-via', detailUrl, shownId ?? ''] : viaEngine.queryKey,
    queryFn: detailUrl ? () => request<ResourceRecord>(detailUrl, { query: { id: shownId ?? '' } }) : viaEngine.queryFn,
    staleTime: 0,
    enabled: id !== null,
  });

  useEffect(() => {
    if (id !== null && detail.isError) onClose();
  }, [id, detail.isError, onClose]);

  const record = detail.data;
  const yesNo = { yes: t('resource.yes'), no: t('resource.no') };
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={`${t('resource.view')} · ${text(def.title, lang)}`}
      width={720}
      destroyOnHidden
    >
      <Spin spinning={detail.isPending && id !== null}>
        <div data-testid="resource-detail">
          {record && (
            <Descriptions
              bordered
              column={1}
              size="small"
              styles={{ label: { width: 160 } }}
              items={detailFields(def).map(([name, f]) => {
                const value = record[name];
                const richText = f.type === 'richtext' && typeof value === 'string' && value !== '';
                return {
                  key: name,
                  label: text(f.label, lang),
                  children: richText ? <RichTextView html={value} /> : <FieldValue name={name} field={f} record={record} dicts={dicts} yesNo={yesNo} refDeleted={t('resource.refDeleted')} large />,
                };
              })}
            />
          )}
        </div>
      </Spin>
    </Drawer>
  );
}

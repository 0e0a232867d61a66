import type { ProColumns } from '@ant-design/pro-components';
import { ProForm } from '@ant-design/pro-components';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CellText } from '../../resource/CellText';
import { fieldItemProps } from '../../resource/formFields';
import { splitIds } from '../../resource/refOptions';
import { ResourcePage } from '../../resource/ResourcePage';
import type { FormOverride, ResourceRecord } from '../../resource/types';
import type { CustomPageProps } from '../../shell/area';
import { MenuTreeSelect } from './menuGrantTree';
import { useTenantText } from './tenantText';

/**
 * Tenant packages (spec 2, "Tenant package screen"): the generic page (search on the name, add, edit,
 * delete, batch delete; the definition hides the view button), the menus picked in a checkable tree of
 * menus and their buttons (`menu/grant-tree`), and how many menus each package holds.
 */
export function TenantPackagePage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const text = useTenantText();

  const formOverride = useMemo<FormOverride<ResourceRecord>>(() => ({
    fields: {
      menuId: (ctx) => {
        const { common, placeholder } = fieldItemProps(ctx, t);
        return (
          <ProForm.Item {...common}>
            <MenuTreeSelect placeholder={placeholder} disabled={common.disabled} />
          </ProForm.Item>
        );
      },
    },
  }), [t]);

  // the menu count beside the name: the package's ids are in every row already
  const columnsOverride = useMemo(() => (columns: ProColumns<ResourceRecord>[]) => {
    const count: ProColumns<ResourceRecord> = {
      title: text.menuCount,
      key: 'menuCount',
      dataIndex: 'menuId',
      width: 100,
      hideInSearch: true,
      render: (_dom, record) => <CellText text={String(splitIds(record.menuId).length)} />,
    };
    const at = columns.findIndex((c) => c.key === 'packageName');
    return [...columns.slice(0, at + 1), count, ...columns.slice(at + 1)];
  }, [text]);

  return <ResourcePage def={def} formOverride={formOverride} columnsOverride={columnsOverride} />;
}

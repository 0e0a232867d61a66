import { PAGE_SIZES, type Lang } from '@console/contract';
import type { PaginationProps } from 'antd';
import type { TFunction } from 'i18next';
import { testId } from '../../testId';
import { DEFAULT_PAGE_SIZE } from '../listQuery';

/** Below this table width the pager drops its jumper and goes small, to stay on one line (a pane beside another). */
export const NARROW_PAGER = 640;

/**
 * The pager: sizes, Saber's 前往 [ ] 页 jumper, the rows shown of how many ("about" for an estimate); in a narrow
 * table (`width` under NARROW_PAGER, 0 when not yet measured) small and without the jumper.
 */
export function listPagination(t: TFunction, lang: Lang, totalExact: boolean, width = 0): PaginationProps {
  const narrow = width > 0 && width < NARROW_PAGER;
  const locale = lang === 'zh' ? 'zh-CN' : 'en-US';
  return {
    defaultPageSize: DEFAULT_PAGE_SIZE,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    // Saber's 前往 [ ] 页 (antd says 跳至)
    showQuickJumper: !narrow,
    ...(narrow ? { size: 'small' as const } : {}),
    locale: { jump_to: t('list.jumpTo'), page: t('list.jumpPage') },
    showTotal: (total, [from, to]) =>
      total === 0
        ? t('list.pageTotalNone')
        : t(totalExact ? 'resource.pageTotal' : 'resource.pageTotalApprox', { from, to, total: total.toLocaleString(locale) }),
    ...testId('resource-pagination'),
  };
}

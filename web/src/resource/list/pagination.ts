import { PAGE_SIZES, type Lang } from '@console/contract';
import type { PaginationProps } from 'antd';
import type { TFunction } from 'i18next';
import { testId } from '../../testId';
import { DEFAULT_PAGE_SIZE } from '../listQuery';

/** The pager: sizes, Saber's 前往 [ ] 页 jumper, the rows shown of how many ("about" for an estimate). */
export function listPagination(t: TFunction, lang: Lang, totalExact: boolean): PaginationProps {
  const locale = lang === 'zh' ? 'zh-CN' : 'en-US';
  return {
    defaultPageSize: DEFAULT_PAGE_SIZE,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    // Saber's 前往 [ ] 页 (antd says 跳至)
    showQuickJumper: true,
    locale: { jump_to: t('list.jumpTo'), page: t('list.jumpPage') },
    showTotal: (total, [from, to]) =>
      total === 0
        ? t('list.pageTotalNone')
        : t(totalExact ? 'resource.pageTotal' : 'resource.pageTotalApprox', { from, to, total: total.toLocaleString(locale) }),
    ...testId('resource-pagination'),
  };
}

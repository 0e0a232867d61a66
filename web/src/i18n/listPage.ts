/**
 * Strings of the generic list page's frame (lazy: registered as `list` by its chunk, i18n/lazy.ts): the
 * delete confirmation, the pager and the table toolbar. `pro` holds the words ProComponents shows (toolbar
 * tooltips, density menu, column settings, selection alert), keyed as ProComponents
 * keys them (resource/proIntl.ts hands them over), so its popups speak the console's language.
 */
export const listPageZh = {
  deleteTitle: '确认删除',
  pageTotalNone: '总共 0 条',
  jumpTo: '前往',
  jumpPage: '页',
  selectAll: '全选当前页',
  selectRow: '选择此行',
  pro: {
    alert: {
      clear: '取消选择',
      selected: '已选择',
      item: '项',
    },
    tableToolBar: {
      leftPin: '固定在左侧',
      rightPin: '固定在右侧',
      noPin: '取消固定',
      leftFixedTitle: '固定在左侧',
      rightFixedTitle: '固定在右侧',
      noFixedTitle: '未固定',
      reset: '重置',
      columnDisplay: '显示全部列',
      columnSetting: '列设置',
      fullScreen: '全屏',
      exitFullScreen: '退出全屏',
      reload: '刷新',
      density: '表格密度',
      densityDefault: '默认',
      densityLarger: '宽松',
      densityMiddle: '标准',
      densitySmall: '紧凑',
    },
  },
};

export const listPageEn: typeof listPageZh = {
  deleteTitle: 'Confirm deletion',
  pageTotalNone: '0 items',
  jumpTo: 'Go to',
  jumpPage: 'page',
  selectAll: 'Select all rows on this page',
  selectRow: 'Select this row',
  pro: {
    alert: {
      clear: 'Clear selection',
      selected: 'Selected:',
      item: '',
    },
    tableToolBar: {
      leftPin: 'Pin to the left',
      rightPin: 'Pin to the right',
      noPin: 'Unpin',
      leftFixedTitle: 'Pinned to the left',
      rightFixedTitle: 'Pinned to the right',
      noFixedTitle: 'Not pinned',
      reset: 'Reset',
      columnDisplay: 'Show all columns',
      columnSetting: 'Columns',
      fullScreen: 'Full screen',
      exitFullScreen: 'Exit full screen',
      reload: 'Refresh',
      density: 'Row density',
      densityDefault: 'Default',
      densityLarger: 'Comfortable',
      densityMiddle: 'Standard',
      densitySmall: 'Compact',
    },
  },
};

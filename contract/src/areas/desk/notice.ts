import { defineResource } from '../../resource.js';

/** Notices (blade-desk): tenant-scoped announcements shown in the shell's notice feed. */
export const noticeResource = defineResource({
  code: 'notice',
  path: '/api/blade-desk/notice',
  title: { zh: '通知公告', en: 'Notices' },
  scope: 'tenant',
  nameField: 'title',
  menu: { parent: 'desk', route: '/desk/notice', name: { zh: '通知公告', en: 'Notices' }, sort: 1, icon: 'iconfont iconicon_sms' },
  fields: {
    title: {
      type: 'string',
      label: { zh: '通知标题', en: 'Title' },
      required: { zh: '请输入通知标题', en: 'Please enter the title' },
      max: 255,
      search: 'like',
      sortable: true,
    },
    category: {
      type: 'int',
      label: { zh: '通知类型', en: 'Category' },
      required: { zh: '请选择通知类型', en: 'Please select the category' },
      dict: 'notice',
      search: 'equal',
      width: 120,
    },
    releaseTime: {
      type: 'datetime',
      label: { zh: '发布时间', en: 'Release time' },
      required: { zh: '请选择发布时间', en: 'Please select the release time' },
      sortable: true,
      width: 170,
    },
    content: {
      type: 'richtext',
      label: { zh: '通知内容', en: 'Content' },
      max: 100000,
    },
  },
});

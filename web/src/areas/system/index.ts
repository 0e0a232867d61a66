import { defineArea, messageTypes } from '../../shell/area';
import type { systemZh } from './i18n';

const DICT_TITLE = { zh: '系统字典', en: 'System dictionary' };

export const systemArea = defineArea({
  name: 'system',
  pages: () => import('./pages'),
  routes: [
    { path: '/dict-horizontal/index', title: DICT_TITLE, load: async () => (await import('./DictScreen')).DictHorizontalPage, resources: true },
    { path: '/dict-vertical/index', title: DICT_TITLE, load: async () => (await import('./DictScreen')).DictVerticalPage, resources: true },
  ],
  messages: messageTypes<{ system: typeof systemZh }>(),
});

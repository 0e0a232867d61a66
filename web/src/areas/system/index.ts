import { defineArea, messageTypes } from '../../shell/area';
import type { systemZh } from './i18n';

export const systemArea = defineArea({
  name: 'system',
  pages: () => import('./pages'),
  routes: [
    { path: '/dict-horizontal/index', load: async () => (await import('./DictScreen')).DictHorizontalPage, resources: true },
    { path: '/dict-vertical/index', load: async () => (await import('./DictScreen')).DictVerticalPage, resources: true },
  ],
  messages: messageTypes<{ system: typeof systemZh }>(),
});

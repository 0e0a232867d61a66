import { defineArea, messageTypes } from '../../shell/area';
import type { authorityZh } from './i18n';

export const authorityArea = defineArea({
  name: 'authority',
  pages: () => import('./pages'),
  messages: messageTypes<{ authority: typeof authorityZh }>(),
});

import { defineArea, messageTypes } from '../../shell/area';
import type { deviceZh } from './i18n';

export const deviceArea = defineArea({
  name: 'device',
  pages: () => import('./pages'),
  messages: messageTypes<{ device: typeof deviceZh }>(),
});

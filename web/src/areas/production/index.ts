import { defineArea, messageTypes } from '../../shell/area';
import type { productionZh } from './i18n';

export const productionArea = defineArea({
  name: 'production',
  pages: () => import('./pages'),
  messages: messageTypes<{ production: typeof productionZh }>(),
});

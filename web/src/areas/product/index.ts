import { defineArea, messageTypes } from '../../shell/area';
import type { productZh } from './i18n';

export const productArea = defineArea({
  name: 'product',
  pages: () => import('./pages'),
  messages: messageTypes<{ product: typeof productZh }>(),
});

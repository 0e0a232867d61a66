import type { I18nText } from '../../i18n.js';

/** Messages of the supplier area (regional business); merged into the contract's `messages` by the area registry. */
export const supplierMessages = {
  agentRegionTaken: { zh: '区域「{region}」已由代理「{agent}」代理', en: 'The region {region} is already held by the agent {agent}' },
} as const satisfies Record<string, I18nText>;

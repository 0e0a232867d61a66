import type { I18nText } from '../../i18n.js';

/** Messages of the supplier area (regional business); merged into the contract's `messages` by the area registry. */
export const supplierMessages = {
  agentRegionTaken: { zh: '区域「{region}」已由代理「{agent}」代理', en: 'The region {region} is already held by the agent {agent}' },
  areaCodePath: { zh: '所属区域应为区划树上自省而下的编号路径, 如 330000,330100,330106', en: 'The region is a path of the region tree from the province down, such as 330000,330100,330106' },
  areaDeviceLabel: { zh: '设备 SN', en: 'Device SN' },
  areaWarnHandled: { zh: '该预警已处理', en: 'This warning is already handled' },
} as const satisfies Record<string, I18nText>;

import type { I18nText } from '../../i18n.js';

/** Messages of the supplier area (regional business); merged into the contract's `messages` by the area registry. */
export const supplierMessages = {
  agentRegionTaken: { zh: '区域「{region}」已由代理「{agent}」代理', en: 'The region {region} is already held by the agent {agent}' },
  areaCodePath: { zh: '所属区域应为区划树上自上而下的编号路径, 如 330000,330100,330106', en: 'The region is a path of the region tree from the province down, such as 330000,330100,330106' },
  areaDeviceLabel: { zh: '设备 SN', en: 'Device SN' },
  approvalDecided: { zh: '该申请已审批, 不能再更改', en: 'This request is already decided and can no longer be changed' },
  approvalOwnRequest: { zh: '不能审批自己提交的申请', en: 'You cannot decide a request you made yourself' },
  areaOaPending: { zh: '设备 {sn} 已有待审批的区域变更', en: 'The lock {sn} already has a region change waiting for approval' },
  areaByDispatch: { zh: '区域派发', en: 'Dispatch' },
  dispatchTarget: { zh: '请填写设备 SN 或批次号 (二选一)', en: 'Enter either a device SN or a batch number' },
  dispatchAgentRegion: { zh: '代理「{agent}」不代理区域「{region}」', en: 'The agent {agent} does not hold the region {region}' },
  dispatchBatchEmpty: { zh: '批次 {batchNo} 中没有本租户的设备', en: 'The batch {batchNo} holds none of your locks' },
  areaWarnHandled: { zh: '该预警已处理', en: 'This warning is already handled' },
} as const satisfies Record<string, I18nText>;

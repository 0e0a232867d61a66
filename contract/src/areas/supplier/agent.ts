import { z } from 'zod';
import { defineActions } from '../../action.js';
import { defineResource } from '../../resource.js';

export const AREA_AGENT_PATH = '/api/omc-device/area-agent';

/**
 * A regional agent and the regions it sells in (`regionCodes`: codes of the region tree, comma-joined). A region
 * belongs to one agent of a tenant: the database holds one row per (tenant, region) (`used-region` lists them).
 */
export const areaAgentResource = defineResource({
  code: 'area_agent',
  path: AREA_AGENT_PATH,
  title: { zh: '区域代理', en: 'Agents' },
  scope: 'tenant',
  nameField: 'agentName',
  menu: { parent: 'supplier_region', route: '/supplier/region/agent', name: { zh: '区域代理', en: 'Agents' }, sort: 3, icon: 'iconfont iconicon_principal' },
  fields: {
    agentName: {
      type: 'string', label: { zh: '代理名称', en: 'Agent' }, required: { zh: '请输入代理名称', en: 'Please enter the agent\'s name' },
      max: 64, unique: true, search: 'like', key: true, width: 180,
    },
    contact: { type: 'string', label: { zh: '联系人', en: 'Contact' }, max: 32, search: 'like', width: 110 },
    phone: { type: 'string', label: { zh: '联系电话', en: 'Phone' }, max: 32, format: 'phone', width: 130 },
    regionCodes: {
      type: 'ids', ref: 'region', label: { zh: '代理区域', en: 'Regions' }, required: { zh: '请选择代理区域', en: 'Please choose the agent\'s regions' },
      key: true, width: 240, help: { zh: '一个区域只属于一个代理', en: 'A region belongs to one agent' },
    },
    remark: { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 },
  },
  actions: defineActions(AREA_AGENT_PATH, {
    usedRegion: {
      segment: 'used-region', method: 'GET', permission: 'area_agent',
      title: { zh: '区域代理：已代理的区域', en: 'Agents: regions already held' },
      // the agent being edited keeps its own regions out of the answer
      input: z.object({ agentId: z.string().trim().regex(/^\d{1,19}$/).optional() }),
      output: z.array(z.object({ regionCode: z.string(), agentId: z.string(), agentName: z.string() })),
    },
    allAgent: {
      segment: 'all-agent', method: 'GET', permission: 'area_agent', alsoFor: ['area'],
      title: { zh: '区域代理：全部代理', en: 'Agents: all agents' },
      input: z.object({}),
      output: z.array(z.object({ id: z.string(), agentName: z.string(), regionCodes: z.string() })),
    },
  }),
});

import { regionResource } from '@console/contract/areas/base/index';
import { bind, defineArea } from '../../core/area.js';
import { region } from '../system/index.js';
import { regionHooks, seedRegions } from './regions.js';

/** Basics (基础配置): the administrative divisions. */
export const baseArea = defineArea({
  name: 'base',
  resources: [bind(regionResource, region, regionHooks)],
  dataSteps: [{ name: '0102-regions', run: seedRegions }],
});

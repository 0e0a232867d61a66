import { attachResource, ossResource, smsResource } from '@console/contract/areas/resource/index';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { UPLOADS } from '../../core/uploads.js';
import { bind, type DataStep, defineArea, provide } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { attachHooks, registerAttachRoutes } from './attach.js';
import { mountEnable, ossHooks, smsHooks } from './configs.js';
import { createUploadService, registerFileRoutes } from './files.js';
import { registerSmsRoutes, smsSender } from './sms.js';
import { SMS } from './smsSender.js';
import { OssStorages } from './storages.js';
import { attach, oss, sms } from './tables.js';

const RESOURCE_DICTS: DictSeed[] = [
  { code: 'sms_category', name: '短信服务商', nameEn: 'SMS provider', items: [['1', '阿里云', 'Aliyun'], ['2', '腾讯云', 'Tencent Cloud'], ['9', '仅记录日志', 'Log only']] },
  { code: 'oss_category', name: '存储类型', nameEn: 'Storage kind', items: [['1', '本地磁盘', 'Local disk'], ['2', 'S3 兼容存储', 'S3-compatible']] },
  { code: 'resource_status', name: '启用状态', nameEn: 'Enabled', items: [['1', '否', 'No'], ['2', '是', 'Yes']] },
];

const RESOURCE_DATA_STEPS: DataStep[] = [{ name: '0201-resource-dicts', run: (tx) => seedDicts(tx, RESOURCE_DICTS) }];

/** The storages of the object storage configurations, one set per server (S3 clients are kept). */
const storagesOf = new WeakMap<AppContext, OssStorages>();
function storages(ctx: AppContext): OssStorages {
  let hit = storagesOf.get(ctx);
  if (!hit) {
    hit = new OssStorages(ctx);
    storagesOf.set(ctx, hit);
  }
  return hit;
}

export { attach } from './tables.js';
export { SMS, type SmsSender } from './smsSender.js';

/**
 * blade-resource: object storage and SMS configurations, the attachment register, and file uploads
 * (`oss/endpoint/put-file`, stored through the tenant's enabled object storage).
 */
export const resourceArea = defineArea({
  name: 'resource',
  services: [provide(UPLOADS, (ctx) => createUploadService(ctx, storages(ctx))), provide(SMS, smsSender)],
  resources: [
    bind(ossResource, oss, ossHooks),
    bind(smsResource, sms, smsHooks),
    bind(attachResource, attach, (ctx) => attachHooks(storages(ctx))(ctx)),
  ],
  async routes(app: FastifyInstance, ctx: AppContext) {
    const s = storages(ctx);
    app.addHook('onClose', async () => s.close());
    await registerFileRoutes(app, ctx, ctx.services.get(UPLOADS), s);
    registerAttachRoutes(app, ctx, s);
    mountEnable(app, ctx, ossResource.actions.enable, oss);
    registerSmsRoutes(app, ctx);
  },
  dataSteps: RESOURCE_DATA_STEPS,
});

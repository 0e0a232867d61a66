import {
  APP_USERS_PATH, feedbackReplyResource, feedbackResource, POSTSALE_USER_PATH, postsaleDeviceResource, postsaleRecordResource, postsaleUserResource,
} from '@console/contract/areas/postsale/index';
import { APP_AUTH } from '../../core/access.js';
import { bind, defineArea, provide } from '../../core/area.js';
import { type DictSeed, seedDicts } from '../../seed/steps.js';
import { registerAppAccount } from './appAccount.js';
import { appTokenVerifier, registerAppApi } from './appApi.js';
import { postsaleDeviceHooks, registerAppBindings } from './bindings.js';
import { postsaleDependents } from './dependents.js';
import { feedbackHooks, feedbackReplyHooks, registerFeedback } from './feedback.js';
import { postsaleRecordHooks, registerRecordActions } from './records.js';
import { feedback, feedbackReply, postsaleDevice, postsaleRecord, postsaleUser } from './tables.js';
import { postsaleUserHooks, registerUserActions } from './users.js';

export { LOCK_REPLACEMENT, type LockReplacement } from './services.js';
export { postsaleDevice, postsaleUser } from './tables.js';
export { mountAppCall, mountAppCallOutside } from './appCall.js';

const POSTSALE_DICTS: DictSeed[] = [
  { code: 'app_user_status', name: 'APP 用户状态', nameEn: 'App user status', items: [['1', '正常', 'Active'], ['0', '已停用', 'Disabled']] },
  { code: 'binding_role', name: '设备身份', nameEn: 'Role on the lock', items: [['owner', '主人', 'Owner'], ['member', '成员', 'Member']] },
  {
    code: 'postsale_kind', name: '售后类型', nameEn: 'Service kind',
    items: [['repair', '维修', 'Repair'], ['replace', '换货', 'Replacement'], ['return', '退货', 'Return'], ['consult', '咨询', 'Consultation']],
  },
  {
    code: 'postsale_record_state', name: '售后状态', nameEn: 'Service state',
    items: [['0', '待处理', 'Pending'], ['1', '处理中', 'Processing'], ['2', '已完成', 'Done'], ['3', '已关闭', 'Closed']],
  },
  {
    code: 'feedback_kind', name: '反馈类型', nameEn: 'Feedback kind',
    items: [['suggestion', '建议', 'Suggestion'], ['fault', '故障', 'Fault'], ['complaint', '投诉', 'Complaint'], ['other', '其他', 'Other']],
  },
  { code: 'feedback_state', name: '反馈状态', nameEn: 'Feedback state', items: [['0', '待回复', 'New'], ['1', '已回复', 'Replied'], ['2', '已关闭', 'Closed']] },
];

/** After-sales (售后管理): the app's users and their locks, service records, feedback, and the phone app's calls. */
export const postsaleArea = defineArea({
  name: 'postsale',
  services: [provide(APP_AUTH, appTokenVerifier)],
  // a batch whose locks are bound in the app is not removed
  dependents: postsaleDependents,
  resources: [
    bind(postsaleUserResource, postsaleUser, postsaleUserHooks),
    bind(postsaleDeviceResource, postsaleDevice, postsaleDeviceHooks),
    bind(postsaleRecordResource, postsaleRecord, postsaleRecordHooks),
    bind(feedbackResource, feedback, feedbackHooks),
    bind(feedbackReplyResource, feedbackReply, feedbackReplyHooks),
  ],
  // BladeX's other names: the users under `ymy-user/users`, their export as `export-user`
  urlAliases: [
    { from: `${APP_USERS_PATH}/`, to: `${POSTSALE_USER_PATH}/` },
    { from: `${POSTSALE_USER_PATH}/export-user`, to: `${POSTSALE_USER_PATH}/export` },
  ],
  dataSteps: [{ name: '0901-postsale-dicts', run: (tx) => seedDicts(tx, POSTSALE_DICTS) }],
  async routes(app, ctx) {
    await registerAppApi(app, ctx);
    registerAppAccount(app, ctx);
    registerAppBindings(app, ctx);
    registerUserActions(app, ctx);
    registerRecordActions(app, ctx);
    registerFeedback(app, ctx);
  },
});

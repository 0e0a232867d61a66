import { ApartmentOutlined } from '@ant-design/icons';
import { t as text } from '@console/contract/i18n';
import { postResource as postDef, userResource as userDef } from '@console/contract/areas/system/index';
import { ProFormSelect } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Tag } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import type { Query } from '../../api/client';
import { addMessages } from '../../i18n/lazy';
import { systemEn, systemZh } from './i18n';
import { resourceKeys } from '../../resource/api';
import { renderFormField } from '../../resource/formFields';
import { joinIds, splitIds } from '../../resource/refOptions';
import { ResourcePage } from '../../resource/ResourcePage';
import { fieldPrompt } from '../../resource/rules';
import type { FormOverride, ResourceRecord, ToolbarContext } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { testId } from '../../testId';
import type { CustomPageProps } from '../../shell/area';
import { DeptTreePanel } from './DeptTreePanel';
import { UserPlatformDialog } from './UserPlatformDialog';
import { UserRolesDialog } from './UserRolesDialog';
import { userSubmitBody } from './userLogic';
import './userPage.css';

addMessages('system', { zh: systemZh, en: systemEn });

type UserRecord = ResourceRecord<typeof userDef.fields>;

/** status 3: a sign-up awaiting approval (dictionary user_status) */
const STATUS_PENDING = 3;
/** below this width the department tree starts hidden (spec 9, level ≤ 1) */
const NARROW = 992;

/**
 * /system/user: the department tree beside the users of the department chosen (and of every department
 * under it, `user/list?deptId=`), the generic list with the account tools: roles, password reset, unlock,
 * sign-up review, the platform dialog; the form sends passwords as their MD5.
 */
export function UserPage(_props: CustomPageProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const can = usePermissionCheck();
  const [deptId, setDeptId] = useState<string | null>(null);
  const [showDepts, setShowDepts] = useState(() => window.innerWidth >= NARROW);
  const [auditing, setAuditing] = useState(false);
  // the dialogs open with the list's reload, to show what they saved
  const [rolesFor, setRolesFor] = useState<{ users: readonly UserRecord[]; reload: () => void } | null>(null);
  const [platformFor, setPlatformFor] = useState<{ id: string; account: string; reload: () => void } | null>(null);

  const params = useMemo<Query>(() => {
    const q: Query = {};
    if (deptId) q.deptId = deptId;
    if (auditing) q.status_equal = STATUS_PENDING;
    return q;
  }, [deptId, auditing]);

  const saved = useCallback((reload: () => void) => {
    void queryClient.invalidateQueries({ queryKey: resourceKeys.all(userDef.path) });
    reload();
  }, [queryClient]);

  /** A confirmed call on the selected users, then a message and a fresh list. */
  const onSelected = useCallback(
    (ctx: ToolbarContext<UserRecord>, confirmText: string, call: (ids: string[]) => Promise<unknown>, done: string) => {
      if (ctx.selectedRows.length === 0) {
        void message.warning(t('resource.selectAtLeastOne'));
        return;
      }
      const ids = ctx.selectedRows.map((r) => r.id);
      modal.confirm({
        title: t('common.tip'),
        content: confirmText,
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        okButtonProps: testId('confirm-ok'),
        cancelButtonProps: testId('confirm-cancel'),
        onOk: () =>
          call(ids).then(
            () => {
              void message.success({ content: done, duration: 5 });
              ctx.clearSelection();
              void queryClient.invalidateQueries({ queryKey: resourceKeys.all(userDef.path) });
              ctx.reload();
            },
            () => undefined,
          ),
      });
    },
    [message, modal, queryClient, t],
  );

  const actions = userDef.actions;
  const extraToolbar = (ctx: ToolbarContext<UserRecord>) => {
    const toggle = (
      <Button
        key="depts"
        icon={<ApartmentOutlined />}
        type={showDepts ? 'default' : 'dashed'}
        onClick={() => setShowDepts((v) => !v)}
        aria-pressed={showDepts}
        aria-label={t(showDepts ? 'system.users.hideDepts' : 'system.users.showDepts')}
        title={t(showDepts ? 'system.users.hideDepts' : 'system.users.showDepts')}
        {...testId('user-dept-toggle')}
      />
    );
    if (auditing) {
      return [
        <Tag key="showing" color="orange" {...testId('user-audit-showing')}>{t('system.users.auditShowing')}</Tag>,
        <Button key="pass" type="primary" {...testId('user-audit-pass')}
          onClick={() => onSelected(ctx, t('system.users.auditPassConfirm'), (ids) => callAction(actions.auditPass, { userIds: ids }), t('system.users.auditPassed'))}>
          {t('system.users.auditPass')}
        </Button>,
        <Button key="refuse" danger {...testId('user-audit-refuse')}
          onClick={() => onSelected(ctx, t('system.users.auditRefuseConfirm'), (ids) => callAction(actions.auditRefuse, { userIds: ids }), t('system.users.auditRefused'))}>
          {t('system.users.auditRefuse')}
        </Button>,
        <Button key="leave" {...testId('user-audit-leave')} onClick={() => { ctx.clearSelection(); setAuditing(false); }}>
          {t('system.users.auditLeave')}
        </Button>,
        toggle,
      ];
    }
    return [
      can('user_role') && (
        <Button key="roles" {...testId('user-roles')}
          onClick={() => (ctx.selectedRows.length === 0 ? void message.warning(t('resource.selectAtLeastOne')) : setRolesFor({ users: ctx.selectedRows, reload: ctx.reload }))}>
          {t('system.users.roles')}
        </Button>
      ),
      can('user_reset') && (
        <Button key="reset" {...testId('user-reset')}
          onClick={() => onSelected(ctx, t('system.users.resetConfirm'), (ids) => callAction(actions.resetPassword, { userIds: ids }), t('system.users.resetDone'))}>
          {t('system.users.reset')}
        </Button>
      ),
      can('user_unlock') && (
        <Button key="unlock" {...testId('user-unlock')}
          onClick={() => onSelected(ctx, t('system.users.unlockConfirm'), (ids) => callAction(actions.unlock, { userIds: ids }), t('system.users.unlockDone'))}>
          {t('system.users.unlock')}
        </Button>
      ),
      can('user_audit') && (
        <Button key="audit" {...testId('user-audit')} onClick={() => { ctx.clearSelection(); setAuditing(true); }}>
          {t('system.users.audit')}
        </Button>
      ),
      toggle,
    ].filter(Boolean);
  };

  const extraRowActions = can('user_platform')
    ? (record: UserRecord, { reload }: { reload: () => void }) => [
        <Button key="platform" type="link" size="small" {...testId('user-row-platform')} onClick={() => setPlatformFor({ id: record.id, account: String(record.account ?? ''), reload })}>
          {t('system.users.platform')}
        </Button>,
      ]
    : undefined;

  const formOverride = useMemo<FormOverride<UserRecord>>(() => {
    const messages = {
      pleaseEnter: (l: string) => t('resource.pleaseEnter', { label: l }),
      pleaseSelect: (l: string) => t('resource.pleaseSelect', { label: l }),
      tooLong: (l: string, max: number) => t('resource.tooLong', { label: l, max }),
    };
    return {
      fields: {
        // set when the account is created (empty: the initial password); changed by reset or by the user
        password: (ctx) => (ctx.mode === 'edit' ? null : renderFormField(ctx, t)),
        // the posts of the tenant, as post/select answers them
        postId: (ctx) => {
          const label = text(ctx.field.label, ctx.lang);
          return (
            <ProFormSelect
              name="postId"
              label={label}
              mode="multiple"
              placeholder={fieldPrompt(ctx.field, label, ctx.lang, messages)}
              getValueProps={(value: unknown) => ({ value: splitIds(value) })}
              normalize={(value: unknown) => joinIds(value)}
              request={async () => (await callAction(postDef.actions.select, {}, { silent: true })).map((p) => ({ label: p.postName, value: p.id }))}
              fieldProps={{ showSearch: true, optionFilterProp: 'label', ...testId('user-form-post') }}
            />
          );
        },
      },
      toSubmit: (values) => userSubmitBody(values),
    };
  }, [t]);

  return (
    <div className="user-page" data-testid="user-page">
      {showDepts && <DeptTreePanel value={deptId} onChange={setDeptId} />}
      <div className="user-page-list">
        <ResourcePage
          def={userDef}
          params={params}
          formOverride={formOverride}
          extraToolbar={extraToolbar}
          extraRowActions={extraRowActions}
        />
      </div>
      {rolesFor && <UserRolesDialog users={rolesFor.users} onClose={() => setRolesFor(null)} onSaved={() => saved(rolesFor.reload)} />}
      {platformFor && (
        <UserPlatformDialog userId={platformFor.id} account={platformFor.account} onClose={() => setPlatformFor(null)} onSaved={() => saved(platformFor.reload)} />
      )}
    </div>
  );
}

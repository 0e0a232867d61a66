import { roleResource as roleDef } from '@console/contract/areas/authority/index';
import { userResource as userDef } from '@console/contract/areas/system/index';
import { Alert, App, Modal, Spin, Tree } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { useTreeNodes } from '../../resource/RefSelect';
import { testId } from '../../testId';
import { allIds } from '../../resource/treeItems';
import { commonIds } from './userLogic';

export interface UserRolesDialogProps {
  users: readonly { id: string; roleId?: string | number | null }[];
  onClose: () => void;
  onSaved: () => void;
}

/** 角色配置: the roles of the selected users (`role/tree`), several at once → `user/grant`. */
export function UserRolesDialog({ users, onClose, onSaved }: UserRolesDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tree = useTreeNodes(roleDef);
  const [checked, setChecked] = useState<string[]>(() => commonIds(users.map((u) => (u.roleId == null ? '' : String(u.roleId)))));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    if (checked.length === 0) {
      setError(t('system.users.rolesRequired'));
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await callAction(userDef.actions.grant, { userIds: users.map((u) => u.id), roleIds: checked }, { silent: true });
      void message.success(t('system.users.rolesSaved'));
      onSaved();
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('system.users.rolesTitle', { n: users.length })}
      onCancel={onClose}
      onOk={save}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={testId('user-roles-submit')}
      cancelButtonProps={testId('user-roles-cancel')}
      destroyOnHidden
    >
      <div data-testid="user-roles-dialog">
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} {...testId('user-roles-error')} />}
        <Spin spinning={tree.isPending}>
          {tree.data && (
            <Tree
              checkable
              checkStrictly
              selectable={false}
              defaultExpandedKeys={allIds(tree.data)}
              treeData={tree.data.map(function toNode(n): { key: string; title: string; children?: ReturnType<typeof toNode>[] } {
                return { key: n.id, title: n.title, children: n.children?.map(toNode) };
              })}
              checkedKeys={{ checked, halfChecked: [] }}
              onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
              titleRender={(node) => <span data-testid="user-roles-node">{String(node.title)}</span>}
            />
          )}
        </Spin>
      </div>
    </Modal>
  );
}

import type { TreeNode } from '@console/contract';
import { deptResource as deptDef } from '@console/contract/areas/system/index';
import { Button, Empty, Input, Spin, Tree } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTreeNodes } from '../../resource/RefSelect';
import { testId } from '../../testId';
import { allIds, filterTree } from '../../resource/treeItems';

export interface DeptTreePanelProps {
  /** the department chosen, or null for 全部 (every user) */
  value: string | null;
  onChange: (deptId: string | null) => void;
}

interface Node {
  key: string;
  title: string;
  children?: Node[];
}

function toNodes(nodes: readonly TreeNode[]): Node[] {
  return nodes.map((n) => ({ key: n.id, title: n.title, children: n.children?.length ? toNodes(n.children) : undefined }));
}

/** The department tree beside the users list (`dept/tree`): search by name, pick one, or 全部. */
export function DeptTreePanel({ value, onChange }: DeptTreePanelProps) {
  const { t } = useTranslation();
  const tree = useTreeNodes(deptDef);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterTree(tree.data ?? [], query), [tree.data, query]);
  const nodes = useMemo(() => toNodes(shown), [shown]);
  const [expanded, setExpanded] = useState<string[]>([]);
  // the first level opens with the tree; a search opens every branch leading to a match
  useEffect(() => {
    setExpanded(query.trim() ? allIds(shown) : shown.map((n) => n.id));
  }, [shown, query]);

  return (
    <div className="user-page-depts" data-testid="dept-tree">
      <Input.Search allowClear placeholder={t('system.users.deptSearch')} onChange={(e) => setQuery(e.target.value)} {...testId('dept-search')} />
      <Button type={value === null ? 'primary' : 'text'} ghost={value === null} block size="small" className="user-page-all" style={{ justifyContent: 'flex-start' }} onClick={() => onChange(null)} aria-pressed={value === null} {...testId('dept-all')}>
        {t('system.users.allDepts')}
      </Button>
      <Spin spinning={tree.isPending}>
        {nodes.length === 0 && !tree.isPending ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('system.users.noDepts')} />
        ) : (
          <Tree<Node>
            blockNode
            treeData={nodes}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys.map(String))}
            selectedKeys={value === null ? [] : [value]}
            // a click on the chosen department keeps it (全部 clears it)
            onSelect={(_keys, info) => onChange(String(info.node.key))}
            titleRender={(node) => (
              <span data-testid="dept-node" data-id={node.key}>
                {node.title}
              </span>
            )}
          />
        )}
      </Spin>
    </div>
  );
}

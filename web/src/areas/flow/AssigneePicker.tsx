import { flowModelResource } from '@console/contract/areas/flow/index';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Select } from 'antd';
import { useState } from 'react';
import { callAction } from '../../api/action';
import { testId } from '../../testId';

/** the user-task fields a picker offers people for: a user id (assignee), user ids, role aliases (candidate groups) */
export type PickedField = 'assignee' | 'candidateUsers' | 'candidateGroups';

const splitList = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

/** the tenant's users and roles matching what is typed (`model/assignees`) */
function usePeople(keyword: string) {
  return useQuery({
    queryKey: ['flow', 'modeler', 'assignees', keyword],
    queryFn: ({ signal }) => callAction(flowModelResource.actions.assignees, keyword ? { keyword } : {}, { silent: true, signal }),
    staleTime: 30_000,
  });
}

/**
 * The designer's choice of people for a user task: the assignee from the tenant's users (or an expression typed,
 * `${applyUser}`), candidate users and groups as tags from its users and roles (expressions too). The model keeps
 * what the engine reads: a user's id, a role's alias, comma-separated.
 */
export function AssigneePicker({ field, value, placeholder, onCommit }: {
  field: PickedField;
  value: string;
  placeholder?: string;
  onCommit: (value: string) => void;
}) {
  const [keyword, setKeyword] = useState('');
  const [draft, setDraft] = useState<string | null>(null);
  const people = usePeople(keyword);
  const userOptions = (people.data?.users ?? []).map((u) => ({ value: u.id, label: `${u.realName || u.account} (${u.account})` }));
  const roleOptions = (people.data?.roles ?? []).map((r) => ({ value: r.alias, label: `${r.name} (${r.alias})` }));
  if (field === 'assignee') {
    const commit = (v: string) => {
      setDraft(null);
      if (v.trim() !== value) onCommit(v.trim());
    };
    return (
      <AutoComplete
        value={draft ?? value}
        options={userOptions}
        placeholder={placeholder}
        onSearch={setKeyword}
        onChange={(v: string) => setDraft(v)}
        onSelect={(v: string) => commit(v)}
        onBlur={() => draft !== null && commit(draft)}
        style={{ width: '100%' }}
        {...testId(`modeler-prop-${field}`)}
      />
    );
  }
  const known = field === 'candidateGroups' ? roleOptions : userOptions;
  return (
    <Select
      mode="tags"
      value={splitList(value)}
      options={known}
      placeholder={placeholder}
      tokenSeparators={[',']}
      onSearch={setKeyword}
      onChange={(v: string[]) => onCommit(v.map((s) => s.trim()).filter(Boolean).join(','))}
      optionFilterProp="label"
      style={{ width: '100%' }}
      {...testId(`modeler-prop-${field}`)}
    />
  );
}

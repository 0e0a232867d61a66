import { type ActionOutput } from '@console/contract';
import { leaveActions } from '@console/contract/areas/flow/index';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { callAction } from '../../../api/action';

type Approver = ActionOutput<typeof leaveActions.approvers>[number];

const SEARCH_DELAY_MS = 300;

const labelOf = (u: Approver) => (u.realName ? `${u.realName} (${u.account})` : u.account);

/**
 * The approver of a leave request: the tenant's active users other than the applicant (`leave/approvers`, open to
 * whoever may apply, so no user-management permission is needed), searched on the server by real name or account.
 */
export function ApproverSelect({ id, value, onChange, placeholder }: {
  id?: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
  placeholder?: string;
}) {
  const [typed, setTyped] = useState('');
  const [term, setTerm] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setTerm(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useQuery({
    queryKey: ['leave', 'approvers', term],
    queryFn: () => callAction(leaveActions.approvers, term ? { keyword: term } : {}, { silent: true }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options = useMemo(() => (found.data ?? []).map((u) => ({ value: u.id, label: labelOf(u) })), [found.data]);
  return (
    <Select
      id={id}
      value={value}
      onChange={onChange}
      options={options}
      showSearch
      allowClear
      filterOption={false}
      onSearch={setTyped}
      loading={found.isFetching}
      status={found.isError ? 'error' : undefined}
      notFoundContent={found.isError ? found.error.message : undefined}
      placeholder={placeholder}
      style={{ width: '100%' }}
      data-testid="leave-approver"
    />
  );
}

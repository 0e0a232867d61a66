import { crudPaths } from '@console/contract';
import { flowProcessActions, leaveActions, workTodoResource } from '@console/contract/areas/flow/index';
import { useQuery } from '@tanstack/react-query';
import { callAction } from '../../../api/action';
import { request } from '../../../api/client';
import type { ResourceRecord } from '../../../resource/types';

/** a task of the user's as `work/todo-detail` answers it (with its step key) */
export type TodoTask = ResourceRecord<typeof workTodoResource.fields>;

/** Everything the leave pages read sits under this key. */
export const LEAVE_KEY = ['flow', 'leave'] as const;

/** The leave request (`leave/detail`), with its approver's and applicant's names and its process's state. */
export function useLeaveRecord(businessId: string) {
  return useQuery({
    queryKey: [...LEAVE_KEY, 'detail', businessId],
    queryFn: ({ signal }) => callAction(leaveActions.detail, { businessId }, { silent: true, signal }),
    staleTime: 0,
    retry: false,
  });
}

/** The instance's history (`process/history-flow-list`). */
export function useFlowHistory(processInstanceId: string) {
  return useQuery({
    queryKey: [...LEAVE_KEY, 'history', processInstanceId],
    queryFn: ({ signal }) => callAction(flowProcessActions.historyFlowList, { processInstanceId }, { silent: true, signal }),
    staleTime: 0,
    retry: false,
  });
}

/** The task to handle, as long as it is the user's and open (the handle route has its id only). */
export function useTodoTask(taskId: string) {
  return useQuery({
    queryKey: [...LEAVE_KEY, 'task', taskId],
    queryFn: ({ signal }) => request<TodoTask>(crudPaths(workTodoResource).detail, { query: { id: taskId }, silent: true, signal }),
    staleTime: 0,
    retry: false,
  });
}

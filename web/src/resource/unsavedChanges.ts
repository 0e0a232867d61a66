import { App } from 'antd';
import type { HookAPI } from 'antd/es/modal/useModal';
import type { TFunction } from 'i18next';
import { useCallback, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { confirmInDialog } from '../dialog/dialogFocus';
import { testId } from '../testId';

/**
 * The console's one guard of typed input (the modal forms and every custom form): a form says whether it holds
 * unsaved changes, under the key of the page it is on (its path and query, the tab's key: a kept page sees its own
 * location); closing or refreshing that tab, clearing the kept pages, or leaving the console asks first.
 */
type Changed = () => boolean;

const pages = new Map<string, Set<Changed>>();

function onBeforeUnload(e: BeforeUnloadEvent) {
  if (![...pages.keys()].some((key) => pageHasUnsavedChanges(key))) return;
  e.preventDefault();
  // older browsers show the prompt only when a value is set
  e.returnValue = '';
}

function listen(): void {
  if (pages.size > 0) globalThis.addEventListener?.('beforeunload', onBeforeUnload);
  else globalThis.removeEventListener?.('beforeunload', onBeforeUnload);
}

/** Registers a check of the page of this key (the hook below does it for a component). */
export function registerUnsavedCheck(key: string, changed: Changed): void {
  const set = pages.get(key) ?? new Set<Changed>();
  set.add(changed);
  pages.set(key, set);
  listen();
}

export function unregisterUnsavedCheck(key: string, changed: Changed): void {
  const set = pages.get(key);
  set?.delete(changed);
  if (set?.size === 0) pages.delete(key);
  listen();
}

/** Drops the checks of pages whose tab is gone (closed with a form open, or remounted by a refresh). */
export function forgetUnsavedExcept(keys: readonly string[]): void {
  for (const key of pages.keys()) if (!keys.includes(key)) pages.delete(key);
  listen();
}

/** Whether a form on the page of this key holds changes not saved. */
export function pageHasUnsavedChanges(key: string): boolean {
  return [...(pages.get(key) ?? [])].some((changed) => changed());
}

/**
 * Registers a form's "changed" check with the page it is on while `active` (a modal while open). The check is
 * read when asked, so it always sees the form's latest values. A hidden page (`<Activity>`) keeps its form and
 * its changes but loses its effects and refs, so the answer is taken as the page hides (a layout cleanup runs
 * before the form's own refs are detached) and given while it stays hidden. The check goes when the form closes
 * (`active` false) or its tab does (`forgetUnsavedExcept`).
 */
export function useUnsavedChanges(changed: Changed, active = true) {
  const { pathname, search } = useLocation();
  const key = pathname + search;
  const latest = useRef(changed);
  latest.current = changed;
  const hidden = useRef<boolean | null>(null);
  const check = useCallback(() => hidden.current ?? latest.current(), []);
  useLayoutEffect(() => {
    hidden.current = null;
    if (active) registerUnsavedCheck(key, check);
    else unregisterUnsavedCheck(key, check);
    return () => {
      if (active) hidden.current = latest.current();
    };
  }, [key, check, active]);
}

/** Asks whether to discard unsaved changes; `discard` runs on 确定. The one wording every guard uses. */
export function confirmDiscard(modal: HookAPI, t: TFunction, discard: () => void, afterClose?: () => void) {
  confirmInDialog(modal, {
    title: t('common.tip'),
    content: t('resource.discardConfirm'),
    okText: t('common.ok'),
    cancelText: t('common.cancel'),
    okButtonProps: testId('confirm-ok'),
    cancelButtonProps: testId('confirm-cancel'),
    onOk: () => discard(),
    afterClose,
  });
}

/**
 * Runs an action that frees the pages of `keys` (closing their tabs, remounting them) at once when none holds
 * unsaved changes, else after the user agreed to discard them.
 */
export function useDiscardGuard() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return useCallback(
    (keys: readonly string[], action: () => void) => {
      if (keys.some((key) => pageHasUnsavedChanges(key))) confirmDiscard(modal, t, action);
      else action();
    },
    [modal, t],
  );
}

import { dictNameKey, format, rowMeets, t as text, type ButtonDef, type Lang, type ResourceDef } from '@console/contract';
import type { ActionDef } from '@console/contract/action';

/**
 * The extra menu buttons that name an action (`ButtonDef.action` → `def.actions[action]`) and that the generic
 * list page renders itself: a row button calls the action with the row (`{ id }`, or `{ ids: [id] }` for an
 * action that takes a list), a toolbar button with the selected rows (`{ ids }`) or with no input at all; a row
 * button that decides a request (`decide`) asks approve or reject first and sends it with the row's `id`; one that
 * asks a value (`ask`) asks it first and sends it with the row's `id` and the row's values it names (`also`).
 * A button a custom page draws (`custom: true`), or whose action needs more than that, is left out.
 */

/**
 * What a row button sends: the row's id as `id`, or as a one-item `ids`; or the row's `id` with a decision, or with
 * a value the operator typed.
 */
export type RowInput = 'id' | 'ids' | 'decide' | 'ask';
/** How a `decide` button's action takes a decision (`ButtonDef.decide`). */
export type DecideDef = NonNullable<ButtonDef['decide']>;
/** What an `ask` button asks and sends (`ButtonDef.ask`). */
export type AskDef = NonNullable<ButtonDef['ask']>;
/** A decide dialog's choice. */
export type Decision = 'approve' | 'reject';
/** What a toolbar button sends: the selected rows' ids, or nothing. */
export type ToolbarInput = 'ids' | 'none';

export interface ActionButton {
  button: ButtonDef;
  action: ActionDef;
}
export interface RowActionButton extends ActionButton {
  input: RowInput;
}
export interface ToolbarActionButton extends ActionButton {
  input: ToolbarInput;
}

export interface ActionButtons {
  row: RowActionButton[];
  toolbar: ToolbarActionButton[];
}

/** A sample id: the inputs are checked with the action's own schema, never a value of the user's. */
const SAMPLE_ID = '1';

/** The keys of an action's input object (a zod object's shape), or none for any other input. */
function inputKeys(action: ActionDef): string[] {
  const shape = (action.input as { shape?: unknown }).shape;
  return typeof shape === 'object' && shape !== null ? Object.keys(shape) : [];
}

function accepts(action: ActionDef, input: Record<string, unknown>): boolean {
  return action.input.safeParse(input).success;
}

/**
 * Whether an action takes a decision on one row: its input names `id`, the decision's field and its comment, and
 * accepts either decision, with a comment and without.
 */
export function takesDecision(action: ActionDef, decide: DecideDef): boolean {
  const keys = inputKeys(action);
  const named = [...new Set(['id', decide.field, ...(decide.comment === undefined ? [] : [decide.comment])])];
  if (!named.every((k) => keys.includes(k))) return false;
  const comments = decide.comment === undefined ? [{}] : [{}, { [decide.comment]: 'ok' }];
  return (['approve', 'reject'] as const).every((d) => comments.every((c) => accepts(action, { ...decideInput(decide, SAMPLE_ID, d), ...c })));
}

/** A sample of a typed value and of a row's value: only the schema's shape is probed. */
const SAMPLE_VALUE = 'X';

/**
 * Whether an action takes an asked value on one row: its input names `id`, the asked field and each `also` key
 * (zod would drop an unknown key silently), and accepts the value with the row's values and without them (a row
 * that has none sends none: see `askInput`).
 */
export function takesAsked(action: ActionDef, ask: AskDef): boolean {
  const also = Object.keys(ask.also ?? {});
  const keys = inputKeys(action);
  if (![...new Set(['id', ask.field, ...also])].every((k) => keys.includes(k))) return false;
  const asked = { id: SAMPLE_ID, [ask.field]: SAMPLE_VALUE };
  return accepts(action, { ...asked, ...Object.fromEntries(also.map((k) => [k, SAMPLE_VALUE])) }) && accepts(action, asked);
}

/**
 * How a row button calls its action: a decide button with its decision, an ask button with the asked value (or
 * not at all when the action cannot take it); else with `{ id }` when its input has `id`, else `{ ids }` when it
 * has `ids`.
 */
export function rowInputOf(action: ActionDef, decide?: DecideDef, ask?: AskDef): RowInput | null {
  if (decide) return takesDecision(action, decide) ? 'decide' : null;
  if (ask) return takesAsked(action, ask) ? 'ask' : null;
  const keys = inputKeys(action);
  if (keys.includes('id') && accepts(action, { id: SAMPLE_ID })) return 'id';
  if (keys.includes('ids') && accepts(action, { ids: [SAMPLE_ID] })) return 'ids';
  return null;
}

/** How a toolbar button calls its action: with the selection's `{ ids }`, or with nothing when its input needs nothing. */
export function toolbarInputOf(action: ActionDef): ToolbarInput | null {
  const keys = inputKeys(action);
  if (keys.includes('ids') && accepts(action, { ids: [SAMPLE_ID] })) return 'ids';
  if (!keys.includes('id') && !keys.includes('ids') && accepts(action, {})) return 'none';
  return null;
}

/** The generic page's action buttons of a definition that the user holds. */
export function actionButtons(def: Pick<ResourceDef, 'menu' | 'actions'>, can: (code: string) => boolean): ActionButtons {
  const out: ActionButtons = { row: [], toolbar: [] };
  for (const button of def.menu?.buttons ?? []) {
    const action = button.action ? def.actions?.[button.action] : undefined;
    if (!action || button.custom || !can(button.code)) continue;
    if (button.placement === 'row' || button.placement === 'both') {
      const input = rowInputOf(action, button.decide, button.ask);
      if (input) out.row.push({ button, action, input });
    }
    // a decision, an asked value is on one row: never the selection's
    if ((button.placement === 'toolbar' || button.placement === 'both') && !button.decide && !button.ask) {
      const input = toolbarInputOf(action);
      if (input) out.toolbar.push({ button, action, input });
    }
  }
  return out;
}

/** The action's input for one row (a decide button's: see `decideInput`). */
export function rowActionInput(b: RowActionButton, id: string): Record<string, unknown> {
  return b.input === 'ids' ? { ids: [id] } : { id };
}

/** A decide button's input: the row, the decision in its field, and the comment when one was written. */
export function decideInput(decide: DecideDef, id: string, decision: Decision, comment?: string): Record<string, unknown> {
  const input: Record<string, unknown> = { id, [decide.field]: decide[decision] };
  const written = comment?.trim();
  if (decide.comment !== undefined && written) input[decide.comment] = written;
  return input;
}

/**
 * An ask button's input: the row's `id`, the typed value (trimmed, in capitals when the button says so) in the
 * asked field, and under each `also` key the row's value of its field (what the operator saw), when the row has one.
 */
export function askInput(ask: AskDef, record: Readonly<Record<string, unknown>> & { id: string }, value: string): Record<string, unknown> {
  const typed = value.trim();
  const seen = Object.entries(ask.also ?? {})
    .map(([key, field]) => [key, record[field]] as const)
    .filter(([, v]) => v !== undefined && v !== null && v !== '');
  return { id: record.id, [ask.field]: ask.upperCase ? typed.toUpperCase() : typed, ...Object.fromEntries(seen) };
}

/** A row's name in a dialog: the name the server answers beside its name field (a region path's), else the field's. */
export function rowName(record: Readonly<Record<string, unknown>>, nameField: string): string {
  const shown = record[dictNameKey(nameField)];
  if (typeof shown === 'string' && shown !== '') return shown;
  const own = record[nameField] ?? record.id;
  return own === undefined || own === null ? '' : String(own);
}

/** The action's input for the selected rows. */
export function toolbarActionInput(b: ToolbarActionButton, ids: readonly string[]): Record<string, unknown> {
  return b.input === 'ids' ? { ids: [...ids] } : {};
}

/** How many rows a confirmation names before it says "and N more". */
export const NAMED_ROWS = 5;

/** The rows a confirmation names: the first few names (quoted in the language's way), and how many more there are. */
export function namedRows(names: readonly string[], lang: Lang): { names: string; more: number } {
  const shown = names.slice(0, NAMED_ROWS);
  return {
    names: lang === 'zh' ? shown.map((n) => `「${n}」`).join('、') : shown.map((n) => `“${n}”`).join(', '),
    more: Math.max(0, names.length - NAMED_ROWS),
  };
}

/**
 * The success message of a button that declares one (`done`, `{key}` taking the answer's field), else null
 * (the page says 「name」 done). Only plain values of an object answer fill the placeholders.
 */
export function doneMessage(button: ButtonDef, answer: unknown, lang: Lang): string | null {
  if (!button.done) return null;
  const params: Record<string, string | number> = {};
  if (typeof answer === 'object' && answer !== null && !Array.isArray(answer)) {
    for (const [k, v] of Object.entries(answer)) if (typeof v === 'string' || typeof v === 'number') params[k] = v;
  }
  return format(text(button.done, lang), params);
}

/** Whether a row button belongs on this record (its `shownWhen`); buttons without one belong on every row. */
export function shownOn(button: ButtonDef, record: Readonly<Record<string, unknown>>): boolean {
  return rowMeets(button.shownWhen, record);
}


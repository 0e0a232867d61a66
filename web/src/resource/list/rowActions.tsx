import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { isValidElement, type ReactNode } from 'react';
import { textWidth } from '../columns';

/** A row shows this many action buttons at most; beyond, the first ones less one stay and the rest go under 更多. */
export const MAX_INLINE_ACTIONS = 3;

/** A button's share of the actions column: its label, its padding and the gap after it. */
function buttonWidth(label: string): number {
  return textWidth(label) + 16 + 8;
}

/** The 更多 button: its label and its arrow. */
function moreWidth(more: string): number {
  return buttonWidth(more) + 18;
}

/**
 * The actions column's width for buttons labelled so, in the order they are shown inline (`null`: a screen's own
 * button, label unknown, counted as 80 px): all of them when they fit, else the inline ones and 更多; never narrower
 * than the header.
 */
export function actionColumnWidth(labels: readonly (string | null)[], header: string, more: string): number {
  const widths = labels.map((l) => (l === null ? 80 : buttonWidth(l)));
  const inline = widths.length > MAX_INLINE_ACTIONS ? [...widths.slice(0, MAX_INLINE_ACTIONS - 1), moreWidth(more)] : widths;
  return Math.max(textWidth(header) + 32, inline.reduce((sum, w) => sum + w, 0) - 8 + 32);
}

/** The engine's own buttons by key, in the order they stay inline when a row has too many: the screen's first. */
const STANDARD_RANK: Record<string, number> = { view: 1, edit: 2, 'add-child': 4, delete: 5 };

/** Where a button (by its React key) stands among the inline ones: lower first. */
export function inlineRank(key: string): number {
  if (key.startsWith('within-')) return 3;
  return STANDARD_RANK[key] ?? 0;
}

function rank(node: ReactNode): number {
  return inlineRank(isValidElement(node) && node.key !== null ? String(node.key) : '');
}

/** Buttons in the order a crowded row keeps them inline: the screen's and the definition's actions, view, edit, sub-lists, add child, delete. */
export function byInlineRank(buttons: readonly ReactNode[]): ReactNode[] {
  return buttons.map((node, i) => ({ node, i, r: rank(node) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.node);
}

/**
 * A row's action buttons: all of them in their order when there are few, else the first ones by `byInlineRank` and
 * a 更多 menu with the rest (in their order).
 */
export function rowActionButtons(buttons: readonly ReactNode[], more: string): ReactNode[] {
  const shown = buttons.filter(Boolean);
  if (shown.length <= MAX_INLINE_ACTIONS) return shown;
  const inline = byInlineRank(shown).slice(0, MAX_INLINE_ACTIONS - 1);
  const rest = shown.filter((node) => !inline.includes(node));
  const items = rest.map((node, i) => ({ key: isValidElement(node) && node.key !== null ? String(node.key) : String(i), label: node }));
  return [
    ...inline,
    <Dropdown key="more" menu={{ items, className: 'resource-row-more-menu' }} trigger={['click']}>
      <Button type="link" size="small" data-testid="resource-row-more">
        {more} <DownOutlined />
      </Button>
    </Dropdown>,
  ];
}

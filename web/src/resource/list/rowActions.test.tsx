import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';

// the reference select loads through the API client (browser-only set-up): not needed here
vi.mock('../RefSelect', () => ({ RefSelect: () => null }));
import { textWidth } from '../columns';
import { actionColumnWidth, MAX_INLINE_ACTIONS, rowActionButtons } from './rowActions';

const button = (key: string) => <button key={key}>{key}</button>;
const keyOf = (node: unknown) => (isValidElement(node) ? String(node.key) : '');

describe('rowActionButtons', () => {
  it('shows up to three buttons as they come', () => {
    const nodes = rowActionButtons([button('view'), button('edit'), false, button('delete')], 'More');
    expect(nodes.map(keyOf)).toEqual(['view', 'edit', 'delete']);
  });

  it('keeps the screen\'s own buttons inline before view and edit, and puts the rest (delete last) under More', () => {
    const nodes = rowActionButtons([button('view'), button('edit'), button('delete'), button('within-station'), button('approve')], 'More');
    expect(nodes).toHaveLength(MAX_INLINE_ACTIONS);
    expect(nodes.slice(0, 2).map(keyOf)).toEqual(['approve', 'view']);
    const more = nodes[2] as ReactElement<{ menu: { items: { key: string }[] } }>;
    expect(more.key).toBe('more');
    expect(more.props.menu.items.map((i) => i.key)).toEqual(['edit', 'delete', 'within-station']);
  });
});

describe('actionColumnWidth', () => {
  it('fits all buttons when they are few, and two and More when they are many', () => {
    const three = actionColumnWidth(['View', 'Edit', 'Delete'], 'Actions', 'More');
    expect(three).toBe(['View', 'Edit', 'Delete'].reduce((s, l) => s + textWidth(l) + 24, 0) - 8 + 32);
    const many = actionColumnWidth(['Approve', 'View', 'Edit', 'Delete', 'Devices'], 'Actions', 'More');
    expect(many).toBeLessThan(actionColumnWidth(['Approve', 'View', 'Edit', 'Delete', 'Devices'].slice(0, 3), 'Actions', 'More') + 40);
    expect(many).toBeGreaterThan(textWidth('ApproveViewMore'));
  });

  it('is never narrower than its header', () => {
    expect(actionColumnWidth([], '操作', '更多')).toBe(textWidth('操作') + 32);
  });
});

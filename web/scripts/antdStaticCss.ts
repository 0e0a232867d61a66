/**
 * The CSS of the antd and ProComponents components the console uses, under its default theme, as antd's
 * CSS-in-JS would write it in the browser (`node --import tsx scripts/antdStaticCss.ts` prints it; the build
 * links it from index.html, vite.config.ts `antdStaticStyle`).
 *
 * Why: on a cold list page the browser spent about a fifth of its main thread generating these styles
 * (serialising style objects, hashing, inserting ~60 <style> tags). The file ends with cssinjs' cache map
 * (`.data-ant-cssinjs-cache-path{content:"path:hash;…"}`): for every path listed there, cssinjs takes the style
 * as coming from a CSS file and neither generates nor inserts it (antd's "whole export" of server-side
 * rendering). A path the file lacks (another theme or primary colour, reduced motion, a component not listed
 * here) is generated at run time as before, so the file is only ever a shortcut.
 *
 * Run with NODE_ENV=production: antd's class hash (`css-…` vs `css-dev-only-…`) depends on it.
 */
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import * as antd from 'antd';
import { createElement as h, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { appTheme, siderTheme } from '../src/shell/theme/themeStyle';
import { DEFAULT_PRIMARY, DEFAULT_THEME } from '../src/shell/theme/themes';

type Props = Record<string, unknown>;
const el = (type: unknown, props: Props = {}, ...children: ReactNode[]) => h(type as ComponentType<Props>, props, ...children);

/** The antd components the console imports (ColorPicker, only in the colour popover, is left to run time). */
const ANTD: readonly (keyof typeof antd)[] = [
  'Alert', 'App', 'AutoComplete', 'Avatar', 'Badge', 'Button', 'Card', 'Checkbox', 'Col', 'DatePicker', 'Descriptions', 'Divider',
  'Drawer', 'Dropdown', 'Empty', 'Form', 'Input', 'InputNumber', 'Layout', 'List', 'Menu', 'Modal', 'Pagination', 'Popover',
  'Progress', 'Radio', 'Result', 'Row', 'Segmented', 'Select', 'Skeleton', 'Space', 'Spin', 'Statistic', 'Switch', 'Table', 'Tabs',
  'Tag', 'Timeline', 'Tooltip', 'Tree', 'TreeSelect', 'Typography', 'Upload',
];

/** What is rendered under the console's root theme: each component and its parts. */
function rootNodes(): ReactNode[] {
  const nodes: ReactNode[] = [];
  for (const name of ANTD) {
    const component = antd[name] as unknown as ComponentType & Record<string, unknown>;
    nodes.push(el(component));
    // the parts that carry styles of their own (Input.Search, Typography.Text, DatePicker.RangePicker, Layout.Sider…)
    for (const [part, sub] of Object.entries(component)) {
      if (/^[A-Z]/.test(part) && (typeof sub === 'function' || (typeof sub === 'object' && sub !== null && '$$typeof' in sub))) nodes.push(el(sub));
    }
  }
  nodes.push(el(antd.Menu, { items: [{ key: 'a', label: 'a', children: [{ key: 'b', label: 'b' }] }] }));
  // a coloured tag registers the preset and status colours' styles
  nodes.push(el(antd.Tag, { color: 'blue' }), el(antd.Tag, { color: 'success' }));
  return nodes;
}

/** What the sidebar renders under its own nested theme (MainLayout): the menu, its collapsed tooltips, the sider. */
function siderNodes(): ReactNode[] {
  return [
    el(antd.Layout.Sider),
    el(antd.Menu, { mode: 'inline', items: [{ key: 'a', label: 'a', children: [{ key: 'b', label: 'b' }] }] }),
    el(antd.Tooltip, { title: 'a', open: true }, el('span')),
  ];
}

export function antdStaticCss(): string {
  const cache = createCache();
  const root = appTheme(DEFAULT_THEME, DEFAULT_PRIMARY);
  const render = (node: ReactNode) => renderToString(el(StyleProvider, { cache }, el(antd.ConfigProvider, { theme: root }, node)));
  for (const node of rootNodes()) {
    try {
      render(node);
    } catch {
      // a part that cannot render alone (Menu.Item outside a menu, Form.List without children): its styles
      // come with its parent, rendered above
    }
  }
  render(el(antd.ConfigProvider, { theme: siderTheme(DEFAULT_THEME, DEFAULT_PRIMARY) }, ...siderNodes()));
  return extractStyle(cache, { plain: true, types: ['style', 'token', 'cssVar'] });
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(antdStaticCss());

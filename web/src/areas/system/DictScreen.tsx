import { LockOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProFormText } from '@ant-design/pro-components';
import { t as text, type I18nText } from '@console/contract';
import { DICT_HEADER_KEY, dictBizResource, dictResource } from '@console/contract/areas/system/index';
import { Button, Col, Empty, Row, Tag } from 'antd';
import { cloneElement, isValidElement, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useLang } from '../../i18n';
import { withFit } from '../../resource/columns';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ColumnsOverride, FormOverride, ResourceRecord } from '../../resource/types';
import { menuTrail } from '../../shell/layout/menuTree';
import { useSession } from '../../store/session';

type Def = typeof dictResource;
type Rec = ResourceRecord<Def['fields']> & { parentIdName?: string | null; isSealedName?: string | null };
export type DictKind = 'dict' | 'dictbiz';
export type DictLayout = 'horizontal' | 'vertical';

const DEFS: Record<DictKind, Def> = { dict: dictResource, dictbiz: dictBizResource as unknown as Def };

const TEXTS = {
  sealed: { zh: '封存', en: 'Sealed' },
  sealedHint: { zh: '已封存, 不能修改或删除', en: 'Sealed: it cannot be changed or removed' },
  items: { zh: '字典配置', en: 'Items' },
  itemsOf: { zh: '「{name}」({code}) 的字典项', en: 'Items of "{name}" ({code})' },
  pick: { zh: '在上方字典列表中点击「字典配置」查看其字典项', en: 'Choose "Items" on a dictionary to see its entries' },
  pickSide: { zh: '在左侧字典列表中点击「字典配置」查看其字典项', en: 'Choose "Items" on a dictionary to see its entries' },
} satisfies Record<string, I18nText>;

const isSealed = (rec: Rec) => Number(rec.isSealed) === 1;

/**
 * Sealed rows (isSealed 1) show a lock tag, and their edit and delete buttons are disabled: the server
 * refuses them anyway (api.md §6), the screen says so before anyone tries.
 */
function sealedColumns(hide: string[], lang: 'zh' | 'en', compact?: { widths: Record<string, number>; dropView: boolean }): ColumnsOverride<Rec> {
  return (columns) =>
    columns
      .filter((col) => !hide.includes(String(col.key)))
      .map((col) => (compact?.widths[String(col.key)] ? { ...col, width: compact.widths[String(col.key)] } : col))
      .map((col): ProColumns<Rec> => {
        if (col.key === 'isSealed') {
          return {
            ...col,
            // the lock says why a row cannot be changed: it stays in view in a narrow pane
            ...withFit({ keep: true, min: typeof col.width === 'number' ? col.width : 80 }),
            render: (_dom, rec) =>
              isSealed(rec) ? (
                <Tag icon={<LockOutlined />} color="orange" data-testid="dict-sealed-tag">
                  {text(TEXTS.sealed, lang)}
                </Tag>
              ) : (
                rec.isSealedName ?? String(rec.isSealed ?? '')
              ),
          };
        }
        if (col.key === 'dictKey') return { ...col, ...withFit({ keep: true, min: typeof col.width === 'number' ? col.width : 120 }) };
        // a dictionary's code names it (flow_outcome, device_notice_channel): it keeps its room in a narrow pane
        if (col.key === 'code' && compact) return { ...col, ...withFit({ keep: true, min: 120 }) };
        if (col.key === 'parentId') return { ...col, render: (_dom, rec) => rec.parentIdName ?? '' };
        const inner = col.render;
        if (col.key !== 'option' || !inner) return col;
        return {
          ...col,
          render: (...args) => {
            const all = inner(...args);
            if (!Array.isArray(all)) return all;
            const out = compact?.dropView ? all.filter((el: ReactNode) => !(isValidElement(el) && el.key === 'view')) : all;
            if (!isSealed(args[1])) return out;
            return out.map((el: ReactNode) =>
              isValidElement(el) && (el.key === 'edit' || el.key === 'delete')
                ? cloneElement(el as ReactElement<{ disabled?: boolean; title?: string }>, { disabled: true, title: text(TEXTS.sealedHint, lang) })
                : el,
            );
          },
        };
      });
}

/** The dictionaries' header rows: their key is BladeX's -1, not asked for. */
const parentForm: FormOverride<Rec> = {
  fields: { dictKey: false },
  toSubmit: (values, ctx) => (ctx.mode === 'create' ? { ...values, dictKey: DICT_HEADER_KEY, parentId: '0' } : values),
};

function childForm(parent: Rec): FormOverride<Rec> {
  return {
    fields: {
      // an item belongs to its dictionary: the code is the parent's
      code: ({ name, field, lang }) => <ProFormText name={name} label={text(field.label, lang)} disabled initialValue={parent.code} />,
    },
    toSubmit: (values, ctx) => (ctx.mode === 'create' ? { ...values, code: parent.code, parentId: parent.id } : { ...values, code: parent.code }),
  };
}

/**
 * The dictionary screen of spec 2: the dictionaries (header rows) and the items of the one picked, beside
 * each other (horizontal) or one above the other (vertical). Both lists are the generic resource page.
 */
export function DictScreen({ kind, layout }: { kind: DictKind; layout: DictLayout }) {
  const def = DEFS[kind];
  const lang = useLang();
  const [parent, setParent] = useState<Rec | null>(null);
  // side by side, each list has half the width: the columns that say the least stay out (all are in the detail)
  const narrow = layout === 'horizontal';
  const parentColumns = useMemo(
    () =>
      narrow
        ? sealedColumns(['parentId', 'dictKey', 'remark', 'createTime', 'sort'], lang, { widths: { code: 150, dictValue: 120, isSealed: 80, option: 160 }, dropView: true })
        : sealedColumns(['parentId', 'dictKey'], lang),
    [lang, narrow],
  );
  const childColumns = useMemo(() => sealedColumns(narrow ? ['code', 'parentId', 'remark', 'createTime'] : [], lang), [lang, narrow]);
  const itemsForm = useMemo(() => (parent ? childForm(parent) : undefined), [parent]);

  const parents = (
    <div data-testid="dict-parents">
      <ResourcePage<Def['fields']>
        def={def}
        listPath={`${def.path}/parent-list`}
        fitWindow={layout === 'horizontal'}
        columnsOverride={parentColumns}
        formOverride={parentForm}
        // the dictionary shown below/beside was edited (its code or name): its items follow
        onSaved={(answer, mode) => {
          const saved = answer as Rec | undefined;
          if (mode === 'edit' && saved && saved.id === parent?.id) setParent(saved);
        }}
        extraRowActions={(rec) => [
          <Button key="items" type="link" size="small" data-testid="dict-row-items" onClick={() => setParent(rec as Rec)}>
            {text(TEXTS.items, lang)}
          </Button>,
        ]}
      />
    </div>
  );
  const children = parent ? (
    <div data-testid="dict-children" data-parent={parent.id}>
      <ResourcePage<Def['fields']>
        key={`${parent.id}:${String(parent.code)}`}
        def={def}
        title={text(TEXTS.itemsOf, lang).replace('{name}', String(parent.dictValue ?? '')).replace('{code}', String(parent.code ?? ''))}
        listPath={`${def.path}/child-list`}
        params={{ parentId: parent.id }}
        fitWindow={false}
        columnsOverride={childColumns}
        formOverride={itemsForm}
      />
    </div>
  ) : (
    <Empty data-testid="dict-children-empty" description={text(layout === 'horizontal' ? TEXTS.pickSide : TEXTS.pick, lang)} />
  );

  if (layout === 'vertical') {
    return (
      <div className="dict-screen dict-vertical" data-testid="dict-screen" data-layout="vertical">
        {parents}
        <div style={{ marginTop: 16 }}>{children}</div>
      </div>
    );
  }
  return (
    <Row gutter={16} className="dict-screen dict-horizontal" data-testid="dict-screen" data-layout="horizontal">
      <Col xs={24} xl={10}>
        {parents}
      </Col>
      <Col xs={24} xl={14}>
        {children}
      </Col>
    </Row>
  );
}

/** system › dict: the system dictionary, parents beside their items. */
export function DictPage() {
  return <DictScreen kind="dict" layout="horizontal" />;
}

/** system › dictbiz: the tenant's business dictionary, parents above their items. */
export function DictBizPage() {
  return <DictScreen kind="dictbiz" layout="vertical" />;
}

/**
 * The fixed routes /dict-horizontal/index and /dict-vertical/index (spec 2): the system dictionary for
 * whoever may manage it, else the caller's business dictionary, else 403.
 */
function FixedDictPage({ layout }: { layout: DictLayout }) {
  const menu = useSession((s) => s.menu);
  // the screens of the caller's menu (system › dict, system › dictbiz)
  const has = (route: string) => menuTrail(menu, route).length > 0;
  const kind: DictKind | null = has(dictResource.menu!.route) ? 'dict' : has(dictBizResource.menu!.route) ? 'dictbiz' : null;
  if (!kind) return <Navigate to="/403" replace />;
  return <DictScreen kind={kind} layout={layout} />;
}

export function DictHorizontalPage() {
  return <FixedDictPage layout="horizontal" />;
}

export function DictVerticalPage() {
  return <FixedDictPage layout="vertical" />;
}

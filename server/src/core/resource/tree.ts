import { type Lang, msg, nameFieldOf, type ResourceDef, t, type TreeNode } from '@console/contract';
import { and, eq, inArray, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/index.js';
import { rowColumns } from '../db/columns.js';
import { badRequest } from '../errors.js';
import { TREE_ROOT } from './refs.js';

type Row = Record<string, unknown>;

/** The deepest a tree may be walked when it keeps no ancestors column (a guard against corrupt data). */
const MAX_DEPTH = 1000;
/** The most rows a whole-tree answer holds; larger trees are read level by level (lazy-tree). */
export const MAX_TREE_ROWS = 20_000;

function escapeLike(v: string): string {
  return v.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Tree rules of a resource: ancestors kept right, no cycles, no orphans. */
export class TreeRules {
  readonly parent: PgColumn;
  readonly ancestors: PgColumn | undefined;
  readonly labelField: string;

  constructor(
    private readonly def: ResourceDef,
    private readonly table: PgTable,
    private readonly columns: Record<string, PgColumn>,
  ) {
    const tree = def.tree!;
    const parent = columns[tree.parentField];
    if (!parent) throw new Error(`resource ${def.code}: no column for the tree's parent field ${tree.parentField}`);
    this.parent = parent;
    this.ancestors = tree.ancestorsColumn ? columns[tree.ancestorsColumn] : undefined;
    if (tree.ancestorsColumn && !this.ancestors) throw new Error(`resource ${def.code}: no column ${tree.ancestorsColumn}`);
    this.labelField = nameFieldOf(def);
  }

  private get id(): PgColumn {
    return this.columns.id!;
  }

  private async row(tx: Executor, scope: SQL[], id: string): Promise<Row | undefined> {
    const [row] = await tx.select(rowColumns(this.table)).from(this.table).where(and(eq(this.id, id), ...scope));
    return row as Row | undefined;
  }

  private ancestorsOf(parent: Row | undefined): string {
    if (!parent) return TREE_ROOT;
    return `${String(parent[this.def.tree!.ancestorsColumn!] ?? TREE_ROOT)},${String(parent.id)}`;
  }

  /** A parent the caller cannot see (missing, deleted, another tenant's): refused naming the field, `ref` or not. */
  private missingParent(lang: Lang): never {
    const field = this.def.tree!.parentField;
    const label = t(this.def.fields[field]?.label ?? { zh: field, en: field }, lang);
    throw badRequest('validationFailed', { detail: msg('refMissing', lang, { field: label }) }, { [field]: msg('refMissing', lang, { field: label }) });
  }

  /** A new row: its ancestors from its parent, which must be a live row the caller sees. */
  async onCreate(tx: Executor, scope: SQL[], row: Row, lang: Lang = 'zh'): Promise<void> {
    const field = this.def.tree!.parentField;
    const parentId = row[field] === null || row[field] === undefined || row[field] === '' ? TREE_ROOT : String(row[field]);
    row[field] = parentId;
    if (parentId === TREE_ROOT) {
      if (this.ancestors) row[this.def.tree!.ancestorsColumn!] = TREE_ROOT;
      return;
    }
    const parent = await this.row(tx, scope, parentId);
    if (!parent) this.missingParent(lang);
    if (this.ancestors) row[this.def.tree!.ancestorsColumn!] = this.ancestorsOf(parent);
  }

  /**
   * A row moving under another parent: a move under itself or one of its descendants is refused; its
   * ancestors and those of its whole subtree follow (returned work runs after the row's own update).
   */
  async onUpdate(tx: Executor, scope: SQL[], stored: Row, changes: Row, lang: Lang): Promise<(() => Promise<void>) | undefined> {
    const field = this.def.tree!.parentField;
    if (!(field in changes)) return undefined;
    const parentId = changes[field] === null || changes[field] === '' ? TREE_ROOT : String(changes[field]);
    changes[field] = parentId;
    const id = String(stored.id);
    if (parentId === String(stored[field])) return undefined;
    if (parentId === id) throw badRequest('treeParentSelf', undefined, { [field]: msg('treeParentSelf', lang) });
    const parent = parentId === TREE_ROOT ? undefined : await this.row(tx, scope, parentId);
    if (parentId !== TREE_ROOT && !parent) this.missingParent(lang);
    if (parentId !== TREE_ROOT && (await this.isDescendant(tx, scope, parent, id))) {
      throw badRequest('treeParentSelf', undefined, { [field]: msg('treeParentSelf', lang) });
    }
    if (!this.ancestors) return undefined;
    const column = this.def.tree!.ancestorsColumn!;
    const before = `${String(stored[column] ?? TREE_ROOT)},${id}`;
    const next = parentId === TREE_ROOT ? TREE_ROOT : this.ancestorsOf(parent);
    changes[column] = next;
    const after = `${next},${id}`;
    const ancestors = this.ancestors;
    return async () => {
      await tx.update(this.table)
        .set({ [column]: sql`${after} || substr(${ancestors}, ${before.length + 1})` } as never)
        .where(and(sql`(${ancestors} = ${before} or ${ancestors} like ${`${escapeLike(before)},%`})`, ...scope));
    };
  }

  private async isDescendant(tx: Executor, scope: SQL[], candidate: Row | undefined, ancestorId: string): Promise<boolean> {
    if (!candidate) return false;
    if (this.ancestors) return String(candidate[this.def.tree!.ancestorsColumn!] ?? '').split(',').includes(ancestorId);
    let cur: Row | undefined = candidate;
    for (let depth = 0; cur && depth < MAX_DEPTH; depth++) {
      const up = String(cur[this.def.tree!.parentField] ?? TREE_ROOT);
      if (up === ancestorId) return true;
      if (up === TREE_ROOT) return false;
      cur = await this.row(tx, scope, up);
    }
    return false;
  }

  /** Refuses to remove rows that still have live children (other than rows removed with them). */
  async beforeRemove(tx: Executor, scope: SQL[], ids: string[], lang: Lang): Promise<void> {
    const [child] = await tx.select({ parentId: this.parent }).from(this.table)
      .where(and(inArray(this.parent, ids), ...scope, notInArray(this.id, ids))).limit(1);
    if (!child) return;
    const parent = await this.row(tx, scope, String(child.parentId));
    const name = String(parent?.[this.labelField] ?? child.parentId);
    throw badRequest('treeHasChildren', { name }, { ids: msg('treeHasChildren', lang, { name }) });
  }

  /** Which of `ids` have live children. */
  async withChildren(tx: Executor, scope: SQL[], ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await tx.selectDistinct({ parentId: this.parent }).from(this.table).where(and(inArray(this.parent, ids), ...scope));
    return new Set(rows.map((r) => String(r.parentId)));
  }

  node(row: Row, hasChildren: boolean): TreeNode {
    const id = String(row.id);
    return {
      id, parentId: String(row[this.def.tree!.parentField] ?? TREE_ROOT), title: String(row[this.labelField] ?? id), key: id, value: id,
      ...(this.ancestors ? { ancestors: String(row[this.def.tree!.ancestorsColumn!] ?? TREE_ROOT) } : {}),
      hasChildren,
    };
  }

  /** Nests rows (already in order); a row whose parent is not among them is a root. */
  static nest<T extends { id: string; parentId: string; children?: T[] }>(nodes: T[]): T[] {
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const roots: T[] = [];
    for (const n of nodes) {
      const parent = n.parentId !== n.id ? byId.get(n.parentId) : undefined;
      if (parent) (parent.children ??= []).push(n);
      else roots.push(n);
    }
    return roots;
  }

  /** Conditions: children of a parent, or the roots. */
  childrenOf(parentId: string): SQL {
    return eq(this.parent, parentId);
  }

  notSelf(id: string): SQL {
    return ne(this.id, id);
  }
}

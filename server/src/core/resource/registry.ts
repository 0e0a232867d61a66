import type { I18nText, Lang, RemovePolicy, ResourceDef } from '@console/contract';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../callers.js';
import type { Executor } from '../db/index.js';

/** Display names of referenced rows by field and id (null: no live row), kept across calls by an export. */
export type ReferenceNames = Map<string, Map<string, unknown>>;

type Row = Record<string, unknown>;

export interface PresentOptions {
  /** reference names kept across calls (an export's chunks) */
  names?: ReferenceNames;
  /** only these fields (with their display names): what an export writes */
  only?: ReadonlySet<string>;
}

/** how many rows of each dependent a message names */
export const NAMED_USES = 3;

/** How many live rows use the rows a remove names. */
export interface DependentUse {
  total: number;
  /** of `total`, rows of other tenants than the caller's: counted, never named */
  others: number;
  /** names of a few of them the caller may see (its tenant's rows, or the platform's) */
  names: string[];
}

/** Lets go of removed rows: a cascade removes the rows using them, a detach clears their reference. */
export type ReleaseFn = (tx: Executor, ids: string[], user: AuthUser) => Promise<void>;

/**
 * Something that uses the rows of a resource (`target`): derived from every field with `ref` (dependents.ts), or
 * registered by an area for a table that is not a resource (a device's field state, a station's operators).
 */
export interface Dependent {
  /** the code of the resource whose rows it uses */
  target: string;
  /** what uses them, as messages name it */
  label: I18nText;
  policy: RemovePolicy;
  /** the live rows using `ids`, across the tenants that may use them */
  uses(tx: Executor, ids: string[], user: AuthUser): Promise<DependentUse>;
  /** a cascade or detach: done in the remove's transaction, before the rows are removed */
  release?: ReleaseFn;
}

/** A resource the engine mounted: what other resources need of it (reference checks and names). */
export interface MountedResource {
  def: ResourceDef;
  table: PgTable;
  columns: Record<string, PgColumn>;
  /**
   * rows as the API answers them: wire formats, `<field>Name` beside dictionary codes and (given the
   * caller) references; called outside any open transaction
   */
  /** records as the API answers them */
  present(rows: Row[], lang: Lang, user?: AuthUser, opts?: PresentOptions): Promise<Row[]>;
  /** the binding's own release of a removed row named by a field (`ResourceHooks.releases`) */
  releases?: Readonly<Record<string, ReleaseFn>>;
  /** records soft-deleted (`is_deleted`), else removed rows are gone */
  softDeleted: boolean;
}

/** Every mounted resource by code: references between resources resolve through it at request time. */
export class ResourceRegistry {
  private readonly byCode = new Map<string, MountedResource>();
  private readonly extra: Dependent[] = [];
  private derived: Map<string, Dependent[]> | undefined;

  add(mounted: MountedResource): void {
    if (this.byCode.has(mounted.def.code)) throw new Error(`resource ${mounted.def.code} is mounted twice`);
    this.byCode.set(mounted.def.code, mounted);
  }

  get(code: string): MountedResource {
    const hit = this.byCode.get(code);
    if (!hit) throw new Error(`no mounted resource ${code}`);
    return hit;
  }

  has(code: string): boolean {
    return this.byCode.has(code);
  }

  all(): MountedResource[] {
    return [...this.byCode.values()];
  }

  /** an area's dependent of a table that is not a resource */
  addDependent(d: Dependent): void {
    if (!this.byCode.has(d.target)) throw new Error(`a dependent of ${d.target}, which is not mounted`);
    this.extra.push(d);
    this.derived = undefined;
  }

  /**
   * what uses the rows of `code`: the fields that refer to it (derived once, by `derive`, when first asked:
   * every resource is mounted by then) and the areas' dependents
   */
  dependentsOf(code: string, derive: (registry: ResourceRegistry) => Dependent[]): Dependent[] {
    if (!this.derived) {
      this.derived = new Map();
      for (const d of [...derive(this), ...this.extra]) {
        const list = this.derived.get(d.target) ?? [];
        list.push(d);
        this.derived.set(d.target, list);
      }
    }
    return this.derived.get(code) ?? [];
  }

  /** Every `ref` names a mounted resource (checked once all modules are mounted). */
  checkReferences(): void {
    for (const { def } of this.byCode.values()) {
      for (const [name, f] of Object.entries(def.fields)) {
        if (f.ref && !this.byCode.has(f.ref)) throw new Error(`resource ${def.code}: field ${name} refers to ${f.ref}, which is not mounted`);
      }
    }
  }
}

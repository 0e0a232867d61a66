import type { Lang, ResourceDef } from '@console/contract';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuthUser } from '../callers.js';

/** Display names of referenced rows by field and id (null: no live row), kept across calls by an export. */
export type ReferenceNames = Map<string, Map<string, unknown>>;

type Row = Record<string, unknown>;

export interface PresentOptions {
  /** reference names kept across calls (an export's chunks) */
  names?: ReferenceNames;
  /** only these fields (with their display names): what an export writes */
  only?: ReadonlySet<string>;
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
}

/** Every mounted resource by code: references between resources resolve through it at request time. */
export class ResourceRegistry {
  private readonly byCode = new Map<string, MountedResource>();

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

  /** Every `ref` names a mounted resource (checked once all modules are mounted). */
  checkReferences(): void {
    for (const { def } of this.byCode.values()) {
      for (const [name, f] of Object.entries(def.fields)) {
        if (f.ref && !this.byCode.has(f.ref)) throw new Error(`resource ${def.code}: field ${name} refers to ${f.ref}, which is not mounted`);
      }
    }
  }
}

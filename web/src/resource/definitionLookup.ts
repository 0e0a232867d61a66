import type { ResourceDef } from '@console/contract';
import { createContext, useContext } from 'react';

/**
 * The definitions a generic page needs beyond its own, handed down by whoever renders it (the page
 * registry, registry/resolvePage.tsx `withDefinitions`): the generic engine imports no definition itself, so it stays
 * off the first page and below the business areas.
 */
export interface DefinitionLookup {
  /** a referenced resource's definition, by code (`field.ref`) */
  byCode(code: string): ResourceDef | undefined;
  /** the resources worked on within a row of the resource `code` (those whose `within.parent` it is) */
  within(code: string): readonly ResourceDef[];
}

const NONE: readonly ResourceDef[] = [];

export const DefinitionLookupContext = createContext<DefinitionLookup>({
  byCode: () => undefined,
  within: () => NONE,
});

export function useDefinitionLookup(): DefinitionLookup {
  return useContext(DefinitionLookupContext);
}

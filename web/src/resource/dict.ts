import { API, type DictItem, type Lang, type ResourceDef } from '@console/contract';
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { request } from '../api/client';
import { useLang } from '../i18n';
import type { DictMap } from './dictValues';

function dictQuery(code: string, lang: Lang) {
  return {
    queryKey: ['dict', code, lang] as const,
    queryFn: () => request<DictItem[]>(API.dictionary, { query: { code } }),
    staleTime: 5 * 60_000,
  };
}

function dictCodesOf(def: ResourceDef): string[] {
  const codes = new Set<string>();
  for (const f of Object.values(def.fields)) if (f.dict) codes.add(f.dict);
  return [...codes];
}

/** Loads (once, cached) every dictionary the resource's fields use. */
export function useDicts(def: ResourceDef): DictMap {
  const lang = useLang();
  const codes = useMemo(() => dictCodesOf(def), [def]);
  const combine = useCallback(
    (results: UseQueryResult<DictItem[]>[]): DictMap => {
      const map: Record<string, readonly DictItem[]> = {};
      results.forEach((r, i) => {
        const code = codes[i];
        if (code !== undefined) map[code] = r.data ?? [];
      });
      return map;
    },
    [codes],
  );
  return useQueries({ queries: codes.map((code) => dictQuery(code, lang)), combine });
}

const NO_ITEMS: readonly DictItem[] = [];

/** One dictionary by code (cached like the resources' own): a screen's widget that no field declares. */
export function useDict(code: string): readonly DictItem[] {
  const lang = useLang();
  return useQueries({ queries: [dictQuery(code, lang)], combine: (results) => results[0]?.data ?? NO_ITEMS });
}

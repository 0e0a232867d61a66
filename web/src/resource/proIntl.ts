import { enUSIntl, zhCNIntl, type IntlType } from '@ant-design/pro-components';
import type { Lang } from '@console/contract';
import { listPageEn, listPageZh } from '../i18n/listPage';

const BASE: Record<Lang, IntlType> = { zh: zhCNIntl, en: enUSIntl };
const OWN: Record<Lang, unknown> = { zh: listPageZh.pro, en: listPageEn.pro };

function lookup(messages: unknown, id: string): string | undefined {
  let node = messages;
  for (const part of id.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * ProComponents' words in the console's language: the console's own wording (`list.pro` in the i18n
 * files) where it has one, ProComponents' built-in locale for the rest.
 */
export function proIntl(lang: Lang): IntlType {
  const base = BASE[lang];
  return {
    locale: base.locale,
    getMessage: (id, defaultMessage) => lookup(OWN[lang], id) ?? base.getMessage(id, defaultMessage),
  };
}

import type { MenuRoute } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { newWindowUrl, withNewWindowOption, withoutNewWindowOption } from './newWindow';

function node(path: string, isOpen: number, children?: MenuRoute[]): MenuRoute {
  return {
    id: path, parentId: '0', code: path, name: path, i18n: { zh: path, en: path }, alias: '', path, source: '',
    sort: 1, category: 1, action: 0, isOpen, component: '', remark: '', ...(children ? { children } : {}),
  };
}

const menu = [node('/desk', 1, [node('/desk/notice', 1), node('/desk/report', 2)])];
const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('opening a page in a new window', () => {
  it('follows the target=_blank query option and drops it from the URL opened', () => {
    expect(newWindowUrl(at('/desk/notice', '?target=_blank'), menu)).toBe('/desk/notice');
    expect(newWindowUrl(at('/desk/notice', '?a=1&target=_blank&b=2', '#x'), menu)).toBe('/desk/notice?a=1&b=2#x');
  });

  it('follows menu entries marked to open in a new window', () => {
    expect(newWindowUrl(at('/desk/report', '?a=1'), menu)).toBe('/desk/report?a=1');
  });

  it('leaves every other navigation in this window', () => {
    expect(newWindowUrl(at('/desk/notice'), menu)).toBeNull();
    expect(newWindowUrl(at('/desk/notice', '?target=_self'), menu)).toBeNull();
    expect(newWindowUrl(at('/elsewhere'), menu)).toBeNull();
  });
});

describe('the new-window option in URLs', () => {
  it('is added to a tab key and removed from a query', () => {
    expect(withNewWindowOption('/desk/notice')).toBe('/desk/notice?target=_blank');
    expect(withNewWindowOption('/desk/notice?a=1')).toBe('/desk/notice?a=1&target=_blank');
    expect(withoutNewWindowOption('?a=1&target=_blank')).toBe('?a=1');
    expect(withoutNewWindowOption('?target=_blank')).toBe('');
    expect(withoutNewWindowOption('?a=1')).toBeNull();
  });
});

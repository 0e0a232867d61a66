import { SearchOutlined } from '@ant-design/icons';
import { Empty, Input, type InputRef, Modal, Typography } from 'antd';
import { type KeyboardEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLang } from '../../../i18n';
import { useSession } from '../../../store/session';
import { HOME_PATH } from '../../paths';
import { type MenuEntry, menuEntries, searchMenu } from './menuSearch';

/**
 * The menu search palette: type to filter the user's menu (names in both languages and paths),
 * ↑/↓ to move, Enter to open, Esc to close.
 */
export function MenuSearchPalette(props: {
  open: boolean;
  onClose: () => void;
  /** keys typed since Ctrl K, before the box could take the focus */
  takeHeldKeys?: () => string;
  /** puts the focus back where it was before the palette opened */
  afterClose?: () => void;
}) {
  const { open, onClose, takeHeldKeys, afterClose } = props;
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const menu = useSession((s) => s.menu);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const inputRef = useRef<InputRef>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const entries = useMemo(
    () => menuEntries(menu, lang, { path: HOME_PATH, label: t('layout.home'), names: [t('layout.home', { lng: 'zh' }), t('layout.home', { lng: 'en' })] }),
    [menu, lang, t],
  );
  const results = useMemo(() => searchMenu(entries, query), [entries, query]);

  /** The box takes the focus and the keys typed since Ctrl K; false while it cannot be focused yet. */
  const focusBox = (): boolean => {
    const input = inputRef.current?.input;
    if (!input) return false;
    if (document.activeElement !== input) inputRef.current?.focus();
    if (document.activeElement !== input) return false;
    const typed = takeHeldKeys?.() ?? '';
    if (typed) setQuery((q) => q + typed);
    return true;
  };

  // a fresh palette every time it opens, focused as it opens (not after the opening animation)
  useLayoutEffect(() => {
    if (!open) return;
    setQuery('');
    setActive(0);
    focusBox();
    // focusBox reads refs and the latest callback; it must run once per opening only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  useEffect(() => {
    listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const openEntry = (entry: MenuEntry | undefined) => {
    if (!entry) return;
    onClose();
    if (entry.newWindow) window.open(entry.path, '_blank', 'noopener');
    else navigate(entry.path);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (results.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + results.length) % results.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      openEntry(results[active]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
    }
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      closable={false}
      title={null}
      width={560}
      style={{ top: 80 }}
      afterOpenChange={(opened) => {
        if (opened) focusBox();
        else afterClose?.();
      }}
      // the opener decides where the focus goes back (never to the field that held the keys)
      focusTriggerAfterClose={false}
    >
      <Input
        ref={inputRef}
        size="large"
        autoFocus
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('chrome.search.placeholder')}
        aria-label={t('chrome.search.placeholder')}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-expanded
        aria-controls="shell-search-results"
        aria-activedescendant={results[active] ? `shell-search-${active}` : undefined}
        data-testid="menu-search-input"
      />
      {results.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chrome.search.empty')} data-testid="menu-search-empty" />
      ) : (
        <ul id="shell-search-results" role="listbox" className="shell-search-list" ref={listRef} data-testid="menu-search-results">
          {results.map((entry, i) => (
            <li
              key={entry.path}
              id={`shell-search-${i}`}
              role="option"
              aria-selected={i === active}
              className="shell-search-item"
              onMouseEnter={() => setActive(i)}
              onClick={() => openEntry(entry)}
              data-testid="menu-search-item"
              data-path={entry.path}
            >
              <span>{[...entry.trail, entry.label].join(' / ')}</span>
              <span className="shell-search-item-path">{entry.path}</span>
            </li>
          ))}
        </ul>
      )}
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8, fontSize: 12 }}>
        {t('chrome.search.hint')}
      </Typography.Text>
    </Modal>
  );
}

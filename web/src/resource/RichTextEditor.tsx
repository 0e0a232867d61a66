import {
  BoldOutlined,
  ClearOutlined,
  DisconnectOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Form, Input, type InputRef, Popover, Space, Tooltip, theme } from 'antd';
import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from './sanitizeHtml';
import './RichTextEditor.css';
import './richText.css';

/**
 * A small rich text editor: a contentEditable area with bold, italic, underline, lists, links and
 * clear formatting. It is a controlled form control (value/onChange/onBlur) holding HTML.
 */
export interface RichTextEditorProps {
  value?: string;
  onChange?: (html: string) => void;
  onBlur?: () => void;
  placeholder?: string;
  id?: string;
  disabled?: boolean;
}

type Command = 'bold' | 'italic' | 'underline' | 'insertOrderedList' | 'insertUnorderedList';

const FORMAT_BUTTONS: readonly { command: Command; icon: ReactNode; label: 'bold' | 'italic' | 'underline' | 'orderedList' | 'bulletList' }[] = [
  { command: 'bold', icon: <BoldOutlined />, label: 'bold' },
  { command: 'italic', icon: <ItalicOutlined />, label: 'italic' },
  { command: 'underline', icon: <UnderlineOutlined />, label: 'underline' },
  { command: 'insertOrderedList', icon: <OrderedListOutlined />, label: 'orderedList' },
  { command: 'insertUnorderedList', icon: <UnorderedListOutlined />, label: 'bulletList' },
];

/** The editor's HTML, or '' when it holds no visible content (browsers leave `<br>` behind). */
function contentOf(el: HTMLElement): string {
  const hasText = (el.textContent ?? '').trim() !== '';
  return hasText || el.querySelector('img, hr') ? el.innerHTML : '';
}

function normaliseUrl(raw: string): string {
  const url = raw.trim();
  return /^(https?:|mailto:|\/|#)/i.test(url) ? url : `https://${url}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The editor's commands on its content, the formatting at the caret, and outside value changes written in. */
function useEditorCommands(editorRef: RefObject<HTMLDivElement | null>, value: string, onChange: ((html: string) => void) | undefined) {
  const [active, setActive] = useState<ReadonlySet<Command>>(new Set());

  // Write outside changes (initial value, form reset) into the DOM, never the editor's own echo.
  useEffect(() => {
    const el = editorRef.current;
    if (el && contentOf(el) !== value) el.innerHTML = sanitizeHtml(value);
  }, [value]);

  const emit = useCallback(() => {
    const el = editorRef.current;
    if (el) onChange?.(contentOf(el));
  }, [onChange]);

  const selectionInEditor = useCallback((): Range | null => {
    const sel = window.getSelection();
    const el = editorRef.current;
    if (!sel || sel.rangeCount === 0 || !el) return null;
    const range = sel.getRangeAt(0);
    return el.contains(range.commonAncestorContainer) ? range : null;
  }, []);

  // Reflect the formatting at the caret in the toolbar.
  useEffect(() => {
    const onSelectionChange = () => {
      if (!selectionInEditor()) return;
      setActive(new Set(FORMAT_BUTTONS.map((b) => b.command).filter((c) => document.queryCommandState(c))));
    };
    document.addEventListener('selectionchange', onSelectionChange);
    return () => document.removeEventListener('selectionchange', onSelectionChange);
  }, [selectionInEditor]);

  const exec = (command: string, arg?: string) => {
    editorRef.current?.focus();
    document.execCommand(command, false, arg);
    emit();
  };
  return { active, emit, selectionInEditor, exec };
}

/** The link popover: it keeps the selection it opened on, and puts a link on it (or the URL as a link at the caret). */
function useLinkBox(editorRef: RefObject<HTMLDivElement | null>, commands: ReturnType<typeof useEditorCommands>) {
  const savedRange = useRef<Range | null>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkUrl, setLinkUrl] = useState('');
  const linkInputRef = useRef<InputRef>(null);

  // the link box takes the focus as the popover opens
  useEffect(() => {
    if (!linkOpen) return;
    const frame = requestAnimationFrame(() => linkInputRef.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [linkOpen]);

  const restoreSelection = () => {
    const range = savedRange.current;
    const sel = window.getSelection();
    editorRef.current?.focus();
    if (range && sel) {
      sel.removeAllRanges();
      sel.addRange(range);
    }
  };

  const openLink = (open: boolean) => {
    if (open) {
      savedRange.current = commands.selectionInEditor()?.cloneRange() ?? null;
      setLinkUrl('');
    }
    setLinkOpen(open);
  };

  const applyLink = () => {
    const url = linkUrl.trim();
    setLinkOpen(false);
    if (!url) return;
    const href = normaliseUrl(url);
    restoreSelection();
    if (savedRange.current && !savedRange.current.collapsed) commands.exec('createLink', href);
    else commands.exec('insertHTML', `<a href="${escapeHtml(href)}">${escapeHtml(url)}</a>`);
  };
  return { linkOpen, setLinkOpen, linkUrl, setLinkUrl, linkInputRef, restoreSelection, openLink, applyLink };
}

/** A toolbar button (an element, not a component: the link popover wraps it as its trigger). */
function toolbarButton(name: string, icon: ReactNode, label: string, onClick: () => void, disabled: boolean | undefined, pressed = false) {
  return (
    <Tooltip key={name} title={label}>
      <Button
        size="small"
        type={pressed ? 'primary' : 'text'}
        ghost={pressed}
        icon={icon}
        aria-label={label}
        aria-pressed={pressed}
        disabled={disabled}
        data-testid={`richtext-${name}`}
        // keep the selection in the editor while the toolbar is clicked
        onMouseDown={(e) => e.preventDefault()}
        onClick={onClick}
      />
    </Tooltip>
  );
}

/** The link popover's URL box and apply button. */
function LinkBox({ link }: { link: ReturnType<typeof useLinkBox> }) {
  const { t } = useTranslation();
  return (
    <Space.Compact>
      <Input
        ref={link.linkInputRef}
        autoFocus
        value={link.linkUrl}
        placeholder={t('richText.linkPlaceholder')}
        onChange={(e) => link.setLinkUrl(e.target.value)}
        onPressEnter={link.applyLink}
        onKeyDown={(e) => {
          // Esc closes only the link popover (not the dialog around the editor); the caret goes back
          if (e.key !== 'Escape' || e.nativeEvent.isComposing) return;
          e.preventDefault();
          e.stopPropagation();
          link.setLinkOpen(false);
          link.restoreSelection();
        }}
        data-testid="richtext-link-url"
      />
      <Button type="primary" onClick={link.applyLink} data-testid="richtext-link-apply">
        {t('richText.apply')}
      </Button>
    </Space.Compact>
  );
}

export function RichTextEditor({ value = '', onChange, onBlur, placeholder, id, disabled }: RichTextEditorProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { status } = Form.Item.useStatus();
  const editorRef = useRef<HTMLDivElement>(null);
  const commands = useEditorCommands(editorRef, value, onChange);
  const { active, emit, exec } = commands;
  const link = useLinkBox(editorRef, commands);

  const onPaste = (e: ClipboardEvent<HTMLDivElement>) => {
    e.preventDefault();
    const html = e.clipboardData.getData('text/html');
    if (html) exec('insertHTML', sanitizeHtml(html));
    else exec('insertText', e.clipboardData.getData('text/plain'));
  };

  const borderColor = status === 'error' ? token.colorError : token.colorBorder;

  return (
    <div
      className="rte"
      // Esc while the link popover is open closes the popover only, wherever the focus is in the editor
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !link.linkOpen || e.nativeEvent.isComposing) return;
        e.preventDefault();
        e.stopPropagation();
        link.setLinkOpen(false);
      }}
      data-testid="richtext"
      style={{ borderColor, borderRadius: token.borderRadius, background: disabled ? token.colorBgContainerDisabled : token.colorBgContainer }}
    >
      <div className="rte-toolbar" style={{ borderColor: token.colorBorderSecondary }}>
        <Space size={2} wrap>
          {FORMAT_BUTTONS.map((b) => toolbarButton(b.command, b.icon, t(`richText.${b.label}`), () => exec(b.command), disabled, active.has(b.command)))}
          <Popover open={link.linkOpen} onOpenChange={link.openLink} trigger="click" content={<LinkBox link={link} />}>
            {toolbarButton('link', <LinkOutlined />, t('richText.link'), () => undefined, disabled)}
          </Popover>
          {toolbarButton('unlink', <DisconnectOutlined />, t('richText.unlink'), () => exec('unlink'), disabled)}
          {toolbarButton('clear', <ClearOutlined />, t('richText.clear'), () => exec('removeFormat'), disabled)}
        </Space>
      </div>
      <div
        ref={editorRef}
        id={id}
        className="rte-content rich-text"
        role="textbox"
        aria-multiline="true"
        aria-invalid={status === 'error'}
        contentEditable={!disabled}
        suppressContentEditableWarning
        data-placeholder={placeholder}
        data-testid="richtext-content"
        onInput={emit}
        // new lines become paragraphs rather than Chrome's default <div>s
        onFocus={() => document.execCommand('defaultParagraphSeparator', false, 'p')}
        onBlur={onBlur}
        onPaste={onPaste}
      />
    </div>
  );
}

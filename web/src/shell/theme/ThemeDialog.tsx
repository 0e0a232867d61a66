import { CheckCircleFilled } from '@ant-design/icons';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../store/settings';
import { resolvePaint } from './paint';
import { THEME_NAMES, THEMES, type ThemeName } from './themes';

/** A miniature of the frame in a theme's colours: sidebar with a selected item, header, page and a card. */
function ThemePreview({ name, primary }: { name: ThemeName; primary: string }) {
  const p = THEMES[name];
  const paint = (v: Parameters<typeof resolvePaint>[0]) => resolvePaint(v, primary);
  const card = p.tokens?.colorBgContainer ?? '#ffffff';
  return (
    <div className="shell-theme-preview" style={{ background: p.backdrop ?? 'none', backgroundColor: paint(p.pageBg) }} aria-hidden>
      <div className="shell-theme-preview-sider" style={{ background: paint(p.sider.bg) }}>
        <div className="shell-theme-preview-item" style={{ background: paint(p.sider.text), opacity: 0.5 }} />
        <div
          className="shell-theme-preview-item"
          style={{
            background: paint(p.sider.selectedBg),
            boxShadow: `inset 0 0 0 1px ${paint(p.sider.selectedText)}`,
            borderInlineStart: p.sider.bar === 'left' ? `3px solid ${paint(p.sider.barColor)}` : undefined,
            borderInlineEnd: p.sider.bar === 'right' ? `3px solid ${paint(p.sider.barColor)}` : undefined,
          }}
        />
        <div className="shell-theme-preview-item" style={{ background: paint(p.sider.text), opacity: 0.5 }} />
      </div>
      <div style={{ background: paint(p.header.bg) }} />
      <div className="shell-theme-preview-body">
        <div style={{ height: 8, borderRadius: 2, background: paint(p.tags.bg), display: 'flex', gap: 3, padding: 1 }}>
          <span style={{ width: 18, borderRadius: 2, background: paint(p.tags.activeBg), border: `1px solid ${paint(p.tags.activeBorder)}` }} />
          <span style={{ width: 18, borderRadius: 2, background: paint(p.tags.tagBg) }} />
        </div>
        <div className="shell-theme-preview-card" style={{ background: card }}>
          <div style={{ width: '40%', height: 6, margin: 6, borderRadius: 2, background: primary }} />
        </div>
      </div>
    </div>
  );
}

/** Spec 2 theme chooser: one card per theme; choosing applies it at once and is remembered. */
export function ThemeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const current = useSettings((s) => s.theme);
  const primary = useSettings((s) => s.primaryColor);
  const setTheme = useSettings((s) => s.setTheme);
  return (
    <Modal open={open} title={t('chrome.theme.title')} footer={null} onCancel={onClose} width={760}>
      <div className="shell-theme-grid" role="radiogroup" aria-label={t('chrome.theme.title')} data-testid="theme-options">
        {THEME_NAMES.map((name) => (
          <button
            key={name}
            type="button"
            role="radio"
            aria-checked={name === current}
            className="shell-theme-card"
            onClick={() => setTheme(name)}
            data-testid={`theme-option-${name}`}
          >
            <ThemePreview name={name} primary={primary} />
            <span>
              {name === current && <CheckCircleFilled style={{ color: primary, marginInlineEnd: 6 }} />}
              {t(`chrome.theme.names.${name}`)}
            </span>
          </button>
        ))}
      </div>
    </Modal>
  );
}

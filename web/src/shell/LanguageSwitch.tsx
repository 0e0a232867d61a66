import { LANGS } from '@console/contract/i18n';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../store/settings';

/**
 * Chooses the UI language (the login page, the header). Two plain radio buttons rather than antd's
 * Segmented, whose 3.7 KB (gzip) would sit on the first page for this one control.
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const lang = useSettings((s) => s.lang);
  const setLang = useSettings((s) => s.setLang);
  return (
    <div
      role="radiogroup"
      aria-label={t('layout.language')}
      data-testid="lang-switch"
      style={{ display: 'inline-flex', padding: 2, gap: 2, borderRadius: token.borderRadiusSM, background: token.colorFillSecondary }}
    >
      {LANGS.map((l) => {
        const checked = l === lang;
        return (
          <button
            key={l}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            onClick={() => setLang(l)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
              e.preventDefault();
              const next = LANGS[(LANGS.indexOf(l) + (e.key === 'ArrowRight' ? 1 : LANGS.length - 1)) % LANGS.length]!;
              setLang(next);
              (e.currentTarget.parentElement?.querySelector(`[data-testid="lang-${next}"]`) as HTMLElement | null)?.focus();
            }}
            lang={l === 'zh' ? 'zh-CN' : 'en'}
            data-testid={`lang-${l}`}
            style={{
              border: 0,
              cursor: 'pointer',
              padding: `0 ${token.paddingXS}px`,
              lineHeight: `${token.controlHeightSM - 4}px`,
              borderRadius: token.borderRadiusXS,
              font: 'inherit',
              fontSize: token.fontSize,
              color: checked ? token.colorText : token.colorTextSecondary,
              background: checked ? token.colorBgContainer : 'transparent',
              boxShadow: checked ? token.boxShadowTertiary : 'none',
            }}
          >
            {t(`languages.${l}`)}
          </button>
        );
      })}
    </div>
  );
}

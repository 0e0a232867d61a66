import { LANGS } from '@console/contract/i18n';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { isLang } from '../i18n';
import { useSettings } from '../store/settings';

/** Chooses the UI language where there is no user menu (the login page). */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const lang = useSettings((s) => s.lang);
  const setLang = useSettings((s) => s.setLang);
  return (
    <Segmented
      size="small"
      value={lang}
      aria-label={t('layout.language')}
      options={LANGS.map((l) => ({ value: l, label: <span data-testid={`lang-${l}`}>{t(`languages.${l}`)}</span> }))}
      onChange={(value) => {
        if (isLang(value)) setLang(value);
      }}
      data-testid="lang-switch"
    />
  );
}

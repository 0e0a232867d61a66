import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { PasswordTab } from './PasswordTab';
import { ProfileTab } from './ProfileTab';
import { addMessages } from '../../../i18n/lazy';
import { infoPageEn, infoPageZh } from '../../../i18n/infoPage';

addMessages('infoPage', { zh: infoPageZh, en: infoPageEn });

/** /info/index: the two tabs of spec 2, personal info and password change. */
export function InfoPage() {
  const { t } = useTranslation();
  return (
    <Card data-testid="info-page">
      <Tabs
        items={[
          { key: 'profile', label: <span data-testid="info-tab-profile">{t('infoPage.profileTab')}</span>, children: <ProfileTab /> },
          { key: 'password', label: <span data-testid="info-tab-password">{t('infoPage.passwordTab')}</span>, children: <PasswordTab /> },
        ]}
      />
    </Card>
  );
}

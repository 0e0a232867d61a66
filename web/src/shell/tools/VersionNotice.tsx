import { App, Button } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { watchVersion } from './versionWatch';

const KEY = 'new-version';

/** Offers a reload when /version.json announces a new deployment (a non-blocking notification). Renders nothing. */
export function VersionNotice() {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  useEffect(
    () =>
      watchVersion((version) => {
        notification.info({
          key: KEY,
          message: <span data-testid="version-notice">{t('tools.version.title')}</span>,
          description: t('tools.version.body', { version }),
          duration: 0,
          actions: (
            <Button type="primary" size="small" onClick={() => window.location.reload()} data-testid="version-reload">
              {t('tools.version.reload')}
            </Button>
          ),
        });
      }),
    [notification, t],
  );
  return null;
}

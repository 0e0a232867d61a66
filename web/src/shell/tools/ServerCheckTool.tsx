import { CloudServerOutlined, LoadingOutlined } from '@ant-design/icons';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeaderIconButton } from '../layout/header/HeaderIconButton';
import { checkServer } from './serverStatus';

/** The server-online check (spec 2, 8): online, offline or request failed. */
export function ServerCheckTool() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [checking, setChecking] = useState(false);

  const check = async () => {
    setChecking(true);
    const verdict = await checkServer();
    setChecking(false);
    const key = 'server-check';
    if (verdict === 'online') void message.success({ key, content: t('tools.server.online') });
    else if (verdict === 'offline') void message.warning({ key, content: t('tools.server.offline') });
    else void message.error({ key, content: t('tools.server.failed') });
  };

  return (
    <HeaderIconButton
      label={t('tools.server.check')}
      icon={checking ? <LoadingOutlined /> : <CloudServerOutlined />}
      disabled={checking}
      aria-busy={checking}
      onClick={() => void check()}
      data-testid="tool-server-check"
    />
  );
}

import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export type ErrorStatus = '403' | '404' | '500';

/** The public /403, /404 and /500 pages. */
export function ErrorPage({ status }: { status: ErrorStatus }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div data-testid={`error-page-${status}`} style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Result
        status={status}
        title={status}
        subTitle={t(`errors.${status}`)}
        extra={
          <Button type="primary" data-testid="error-back-home" onClick={() => navigate('/', { replace: true })}>
            {t('errors.backHome')}
          </Button>
        }
      />
    </div>
  );
}

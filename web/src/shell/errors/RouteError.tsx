import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { isChunkLoadError } from '../chunkLoad';
import { recordError } from '../tools/errorCapture';

/**
 * Shown when a page throws while rendering or its code fails to load (e.g. after a redeploy). Both are
 * kept in the local error log; a ChunkLoadError says so and offers a retry (a reload: the browser keeps
 * a failed module import failed for the life of the document).
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
    recordError({ error, info: 'route error boundary' });
  }, [error]);

  const chunk = isChunkLoadError(error);
  return (
    <div
      data-testid={chunk ? 'chunk-load-error' : 'route-error'}
      style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <Result
        status={chunk ? 'warning' : '500'}
        title={chunk ? t('tools.chunk.title') : '500'}
        subTitle={chunk ? `ChunkLoadError: ${t('tools.chunk.body')}` : t('errors.crashed')}
        extra={
          <Button type="primary" onClick={() => window.location.reload()} data-testid={chunk ? 'chunk-retry' : undefined}>
            {chunk ? t('tools.chunk.retry') : t('errors.reload')}
          </Button>
        }
      />
    </div>
  );
}

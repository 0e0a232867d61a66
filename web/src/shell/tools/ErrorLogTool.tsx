import { BugOutlined } from '@ant-design/icons';
import { Badge } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorLog } from '../../store/errorLog';
import { lazy } from '../chunkLoad';
import { useFoldedBadge } from '../layout/header/headerFold';
import { HeaderIconButton } from '../layout/header/HeaderIconButton';

const ErrorLogPanel = lazy(() => import('./ErrorLogPanel').then((m) => ({ default: m.ErrorLogPanel })));

/** Spec 9: the badge caps at 99 (99+). */
export const ERROR_BADGE_OVERFLOW = 99;

/** The bug icon: how many errors the local log holds, and the log panel. */
export function ErrorLogTool() {
  const { t } = useTranslation();
  const count = useErrorLog((s) => s.records.length);
  useFoldedBadge('errorLog', count);
  const [open, setOpen] = useState(false);
  // the panel's code loads on first use and stays mounted so it can animate out
  const [used, setUsed] = useState(false);

  return (
    <>
      <span data-testid="error-log-badge" data-count={count}>
        <Badge count={count} overflowCount={ERROR_BADGE_OVERFLOW} size="small" offset={[-4, 4]}>
          <HeaderIconButton
            label={t('tools.errorLog.button')}
            icon={<BugOutlined />}
            onClick={() => {
              setUsed(true);
              setOpen(true);
            }}
            data-testid="tool-error-log"
          />
        </Badge>
      </span>
      {used && (
        <Suspense fallback={null}>
          <ErrorLogPanel open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

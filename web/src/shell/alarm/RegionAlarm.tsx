import type { Page } from '@console/contract';
import { REGION_ALARM } from '@console/contract/areas/supplier/alarm';
import { useQuery } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { consoleConfigQuery } from '../../api/consoleConfig';
import { request } from '../../api/client';
import { useSession } from '../../store/session';
import { useTabs } from '../tabs/tabsStore';
import { alarmStep, regionAlarmActive } from './regionAlarm';

interface Warning {
  deviceSn: string;
  activatedName?: string;
  dispatchedName?: string;
}

const KEY = 'region-alarm';

/**
 * The region alarm (spec 6 and 9): every `regionAlarmMs` it reads the newest cross-region warning and how many there
 * are, and says so when there are more than at the last poll. Renders nothing.
 */
export function RegionAlarm() {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const active = useSession((s) => regionAlarmActive(s.userInfo?.tenant_id, s.menu));
  const every = useQuery(consoleConfigQuery).data?.regionAlarmMs;

  useEffect(() => {
    if (!active || !every) return;
    let last: number | undefined;
    let stopped = false;
    const poll = async () => {
      const page = await request<Page<Warning>>(`${REGION_ALARM.path}/list`, { query: { current: 1, size: 1 }, silent: true }).catch(() => undefined);
      if (stopped || !page) return;
      const step = alarmStep(last, page.total);
      last = step.last;
      const newest = page.records[0];
      if (step.fresh === 0 || !newest) return;
      notification.warning({
        key: KEY,
        message: <span data-testid="region-alarm">{t('tools.regionAlarm.title', { count: step.fresh })}</span>,
        description: t('tools.regionAlarm.body', { sn: newest.deviceSn, activated: newest.activatedName ?? '', dispatched: newest.dispatchedName ?? '' }),
        duration: 0,
        actions: (
          <Button type="primary" size="small" data-testid="region-alarm-open" onClick={() => {
            notification.destroy(KEY);
            // an open warnings page shows the new ones (it is remounted; a page not open is loaded anew anyway)
            useTabs.getState().refresh(REGION_ALARM.route);
            void navigate(REGION_ALARM.route);
          }}>
            {t('tools.regionAlarm.open')}
          </Button>
        ),
      });
    };
    void poll();
    const timer = setInterval(() => void poll(), every);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [active, every, navigate, notification, t]);
  return null;
}

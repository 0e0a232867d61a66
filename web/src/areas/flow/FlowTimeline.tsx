import type { FlowHistoryItem } from '@console/contract/areas/flow/index';
import { Empty, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { testId } from '../../testId';
import { outcomeKey, stepLabel } from './flowMarkers';

/** the steps a person sees: tasks and the start, not the gateways' and events' bookkeeping */
const SHOWN = new Set(['startEvent', 'userTask', 'endEvent']);

/**
 * An instance's history (`process/history-flow-list`) as a timeline: each step with who did it, when, how and the
 * comment; a step still waiting last, in progress. Items carry `data-element-id` and `data-outcome`.
 */
export function FlowTimeline({ items }: { items: readonly FlowHistoryItem[] }) {
  const { t } = useTranslation();
  const shown = items.filter((i) => SHOWN.has(i.historyActivityType));
  if (shown.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('flow.chart.noHistory')} />;
  return (
    <Timeline
      {...testId('flow-timeline')}
      items={shown.map((item, i) => {
        const outcome = outcomeKey(item.outcome);
        const running = item.endTime === null;
        return {
          key: `${item.historyActivityId}-${i}`,
          color: running ? 'blue' : outcome === 'reject' ? 'red' : outcome === 'cancelled' ? 'gray' : 'green',
          children: (
            <div data-testid="flow-timeline-item" data-element-id={item.historyActivityId} data-outcome={item.outcome ?? ''}>
              <Typography.Text strong {...testId('flow-timeline-step')}>{stepLabel(item, (type) => t(`flow.chart.unnamed.${type}`))}</Typography.Text>
              {item.assigneeName && <Typography.Text style={{ marginInlineStart: 8 }}>{item.assigneeName}</Typography.Text>}
              {outcome && (
                <Tag style={{ marginInlineStart: 8 }} color={outcome === 'pass' ? 'success' : outcome === 'reject' ? 'error' : 'default'}>
                  {t(`flow.chart.outcomes.${outcome}`)}
                </Tag>
              )}
              {running && item.historyActivityType === 'userTask' && <Tag style={{ marginInlineStart: 8 }} color="processing">{t('flow.chart.running')}</Tag>}
              <div><Typography.Text type="secondary">{item.endTime ?? item.createTime ?? ''}</Typography.Text></div>
              {item.comment && <div {...testId('flow-timeline-comment')}>{t('flow.chart.comment')}: {item.comment}</div>}
            </div>
          ),
        };
      })}
    />
  );
}

import { leaveActions } from '@console/contract/areas/flow/index';
import { App, Button, Card, DatePicker, Form, Input, InputNumber } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { callAction } from '../../../api/action';
import { fieldErrorsOf } from '../../../api/client';
import { addMessages } from '../../../i18n/lazy';
import { flowEn, flowZh } from '../i18n';
import { testId } from '../../../testId';
import { useFlowChart } from '../useFlowChart';
import { useCloseAndGo } from '../useCloseAndGo';
import { ApproverSelect } from './ApproverSelect';
import { LEAVE_DATE_FORMAT, leaveDays } from './leaveDays';

addMessages('flow', { zh: flowZh, en: flowEn });

interface LeaveForm {
  range?: [Dayjs | null, Dayjs | null] | null;
  days?: number | null;
  reason?: string;
  taskUser?: string;
}

/** the server names the dates apart; the form holds them in one range */
const FORM_FIELD: Record<string, keyof LeaveForm> = { startTime: 'range', endTime: 'range', days: 'days', reason: 'reason', taskUser: 'taskUser' };

/**
 * /work/process/leave/form/:processDefinitionId — 请假申请: the period, the days (counted from it, editable), the
 * reason and the approver; `leave/start-process` writes the request and starts its process, then 已发事务.
 */
export function LeaveFormPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { processDefinitionId = '' } = useParams();
  const [form] = Form.useForm<LeaveForm>();
  const [sending, setSending] = useState(false);
  const chart = useFlowChart();
  const closeAndGo = useCloseAndGo();

  const submit = async (values: LeaveForm) => {
    const [start, end] = values.range ?? [];
    if (!start || !end) return;
    setSending(true);
    try {
      await callAction(leaveActions.startProcess, {
        processDefinitionId, startTime: start.format(LEAVE_DATE_FORMAT), endTime: end.format(LEAVE_DATE_FORMAT),
        days: Number(values.days), reason: (values.reason ?? '').trim(), taskUser: values.taskUser ?? '',
      });
      void message.success(t('flow.leave.submitted'));
      await closeAndGo('/work/send');
    } catch (err) {
      // the client has toasted it; the fields it names show their message too
      const errors = fieldErrorsOf(err) ?? {};
      form.setFields(Object.entries(errors).flatMap(([name, msg]) => (FORM_FIELD[name] ? [{ name: FORM_FIELD[name], errors: [msg] }] : [])));
    } finally {
      setSending(false);
    }
  };

  return (
    <Card
      title={t('flow.leave.formTitle')}
      extra={<Button {...testId('leave-chart')} onClick={() => chart.show({ processDefinitionId })}>{t('flow.chart.open')}</Button>}
      {...testId('leave-form-page')}
    >
      <Form<LeaveForm>
        form={form}
        name="leave"
        layout="horizontal"
        labelCol={{ flex: '110px' }}
        labelWrap
        style={{ maxWidth: 720 }}
        onFinish={submit}
        onValuesChange={(changed: LeaveForm) => {
          if (!('range' in changed)) return;
          const [start, end] = changed.range ?? [];
          const days = leaveDays(start?.toDate(), end?.toDate());
          if (days !== null) form.setFieldValue('days', days);
        }}
        {...testId('leave-form')}
      >
        <Form.Item name="range" label={t('flow.leave.range')} rules={[{ required: true, message: t('flow.leave.rangeRequired') }]}>
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm', defaultValue: [dayjs('09:00', 'HH:mm'), dayjs('18:00', 'HH:mm')] }}
            format={LEAVE_DATE_FORMAT}
            placeholder={[t('flow.leave.start'), t('flow.leave.end')]}
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item name="days" label={t('flow.leave.days')} extra={t('flow.leave.daysHint')} rules={[{ required: true, message: t('flow.leave.daysRequired') }]}>
          <InputNumber min={1} max={365} precision={0} style={{ width: 160 }} {...testId('leave-days')} />
        </Form.Item>
        <Form.Item name="taskUser" label={t('flow.leave.approver')} rules={[{ required: true, message: t('flow.leave.approverRequired') }]}>
          <ApproverSelect placeholder={t('flow.leave.approverSearch')} />
        </Form.Item>
        <Form.Item name="reason" label={t('flow.leave.reason')} rules={[{ required: true, whitespace: true, message: t('flow.leave.reasonRequired') }]}>
          <Input.TextArea rows={4} maxLength={500} showCount {...testId('leave-reason')} />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Button type="primary" htmlType="submit" loading={sending} {...testId('leave-submit')}>{t('flow.leave.submit')}</Button>
        </Form.Item>
      </Form>
      {chart.dialog}
    </Card>
  );
}

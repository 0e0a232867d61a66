import { ProFormTextArea } from '@ant-design/pro-components';
import type { ProColumns } from '@ant-design/pro-components';
import { t as text, type ActionOutput } from '@console/contract';
import { emergencyCodeResource, emergencyUnlockResource } from '@console/contract/areas/device/index';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callAction } from '../../api/action';
import { addMessages } from '../../i18n/lazy';
import { deviceEn, deviceZh } from './i18n';
import { resourceKeys } from '../../resource/api';
import { ResourcePage } from '../../resource/ResourcePage';
import type { ColumnsOverride, ResourceRecord } from '../../resource/types';
import { usePermissionCheck } from '../../store/permissions';
import { useSession } from '../../store/session';
import { testId } from '../../testId';
import { ActionDialog } from '../../dialog/ActionDialog';
import type { CustomPageProps } from '../../shell/area';
import { IssuedCodesModal } from './IssuedCodesModal';

addMessages('device', { zh: deviceZh, en: deviceEn });

/** a request as listed: its fields, and who created it (the engine's `createUser`) */
type Request = ResourceRecord<typeof emergencyUnlockResource.fields> & { createUser?: string };
type Issued = ActionOutput<typeof emergencyUnlockResource.actions.generate>;
type Decision = 'approve' | 'reject';

const { approve: approveAction, reject: rejectAction, generate: generateAction } = emergencyUnlockResource.actions;
/** the menu's buttons (the page draws them: a comment dialog, the codes shown once) */
const APPROVE_CODE = approveAction.permission!;
const GENERATE_CODE = generateAction.permission!;

/**
 * 应急开锁: the requests (the generic page) with 批准 / 驳回 (a comment, while pending), 生成开锁码 (once
 * approved: the codes are shown this once) and 开锁码 (the request's issued codes, masked by the server).
 */
export function EmergencyPage({ def }: CustomPageProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const can = usePermissionCheck();
  const userId = useSession((s) => s.userInfo?.user_id);
  const queryClient = useQueryClient();
  const [deciding, setDeciding] = useState<{ row: Request; decision: Decision; reload: () => void } | null>(null);
  const [issued, setIssued] = useState<{ row: Request; codes: Issued } | null>(null);
  const [codesOf, setCodesOf] = useState<Request | null>(null);

  const generate = (row: Request, reload: () => void) => {
    modal.confirm({
      title: t('device.emergency.generate'),
      content: t('device.emergency.generateConfirm', { sn: row.deviceSn ?? '' }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: () => callAction(generateAction, { id: row.id }).then((codes) => {
        setIssued({ row, codes });
        void queryClient.invalidateQueries({ queryKey: resourceKeys.all(emergencyCodeResource.path) });
        reload();
      }, () => undefined),
    });
  };

  return (
    <>
      <ResourcePage
        def={def}
        extraRowActions={(record, { reload }) => {
          const row = record as Request;
          // the second pair of eyes: whoever asked never decides (the server refuses it too)
          const decides = can(APPROVE_CODE) && row.state === 'pending' && row.createUser !== userId;
          return [
            decides && (
              <Button key="approve" type="link" size="small" {...testId('emergency-row-approve')} onClick={() => setDeciding({ row, decision: 'approve', reload })}>
                {t('device.emergency.approve')}
              </Button>
            ),
            decides && (
              <Button key="reject" type="link" size="small" danger {...testId('emergency-row-reject')} onClick={() => setDeciding({ row, decision: 'reject', reload })}>
                {t('device.emergency.reject')}
              </Button>
            ),
            can(GENERATE_CODE) && row.state === 'approved' && (
              <Button key="generate" type="link" size="small" {...testId('emergency-row-generate')} onClick={() => generate(row, reload)}>
                {t('device.emergency.generate')}
              </Button>
            ),
            // the codes are read with this screen's menu code (emergency_code's `codes.menu`), which whoever is here holds
            <Button key="codes" type="link" size="small" {...testId('emergency-row-codes')} onClick={() => setCodesOf(row)}>
              {t('device.emergency.codes')}
            </Button>,
          ];
        }}
      />
      {deciding && <DecisionDialog {...deciding} onClose={() => setDeciding(null)} />}
      {issued && <IssuedCodesModal sn={issued.row.deviceSn ?? ''} codes={issued.codes} onClose={() => setIssued(null)} />}
      {codesOf && <CodesDrawer request={codesOf} onClose={() => setCodesOf(null)} />}
    </>
  );
}

function DecisionDialog({ row, decision, reload, onClose }: { row: Request; decision: Decision; reload: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <ActionDialog
      open
      title={t(decision === 'approve' ? 'device.emergency.approveTitle' : 'device.emergency.rejectTitle', { sn: row.deviceSn ?? '' })}
      testid={`emergency-${decision}`}
      onClose={onClose}
      onSubmit={async (values) => {
        const comment = String(values.comment ?? '').trim();
        const input = comment ? { id: row.id, comment } : { id: row.id };
        await callAction(decision === 'approve' ? approveAction : rejectAction, input);
        void message.success(t(decision === 'approve' ? 'device.emergency.approved' : 'device.emergency.rejected'));
        reload();
      }}
    >
      <ProFormTextArea name="comment" label={t('device.emergency.comment')} placeholder={t('device.emergency.commentHint')}
        fieldProps={{ rows: 3, maxLength: 255, showCount: true }} />
    </ActionDialog>
  );
}

type CodeRow = ResourceRecord<typeof emergencyCodeResource.fields>;
const codeField = emergencyCodeResource.fields.code;

/**
 * The code as the server answers it once issued (`******`: a secret field). The generic columns leave secret
 * fields out (they are never filtered or sorted on); this list shows it, masked, after the SN.
 */
function withMaskedCode(columns: ProColumns<CodeRow>[], title: string): ProColumns<CodeRow>[] {
  const code: ProColumns<CodeRow> = {
    title, key: 'code', dataIndex: 'code', width: codeField.width, hideInSearch: true,
    render: (_dom, row) => <span {...testId('emergency-code-masked')}>{row.code ?? '-'}</span>,
  };
  const at = columns.findIndex((c) => c.dataIndex === 'deviceSn');
  return [...columns.slice(0, at + 1), code, ...columns.slice(at + 1)];
}

/** The codes issued for one request (the code itself masked by the server: it is shown only when generated). */
function CodesDrawer({ request, onClose }: { request: Request; onClose: () => void }) {
  const { t } = useTranslation();
  const fixed = useMemo(() => ({ unlockId: request.id }), [request.id]);
  const columnsOverride = useMemo<ColumnsOverride<CodeRow>>(() => (columns, ctx) => withMaskedCode(columns, text(codeField.label, ctx.lang)), []);
  return (
    <Drawer open onClose={onClose} width="min(1100px, 92vw)" destroyOnHidden title={t('device.emergency.listTitle', { sn: request.deviceSn ?? '' })} {...testId('emergency-codes')}>
      <ResourcePage def={emergencyCodeResource} fixed={fixed} fitWindow={false} columnsOverride={columnsOverride} />
    </Drawer>
  );
}

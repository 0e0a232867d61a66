import { CloudDownloadOutlined, CompressOutlined, FolderOpenOutlined, RedoOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { crudPaths } from '@console/contract';
import { flowModelResource } from '@console/contract/areas/flow/index';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Space, Spin, Tag, Tooltip } from 'antd';
import { useEffect, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, request } from '../../api/client';
import { confirmInDialog } from '../../dialog/dialogFocus';
import { addMessages } from '../../i18n/lazy';
import { flowEn, flowZh } from './i18n';
import { resourceKeys } from '../../resource/api';
import type { ResourceRecord } from '../../resource/types';
import { testId } from '../../testId';
import type { Canvas, CommandStack, DiagramElement, EventBus, Moddle, Modeling } from './bpmnTypes';
import { ModelerPanel, type PanelServices } from './ModelerPanel';
import './bpmnModelerDialog.css';

addMessages('flow', { zh: flowZh, en: flowEn });

type Model = ResourceRecord<typeof flowModelResource.fields>;

/** what the dialog drives of the Modeler */
interface ModelerHandle {
  importXML(xml: string): Promise<unknown>;
  saveXML(options: { format: boolean }): Promise<{ xml?: string }>;
  destroy(): void;
  canvas: Canvas;
  commandStack: CommandStack;
  services: PanelServices;
}

type Status = { state: 'loading' } | { state: 'ready' } | { state: 'failed'; message: string };

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const BPMN_FILES = '.bpmn,.bpmn20.xml,.xml';

/**
 * 模型设计: the model's diagram in bpmn-js's Modeler (its own chunk), full screen, with a properties panel of the
 * console's own (ModelerPanel). 保存 posts the XML to `model/submit`; the server refuses a diagram it cannot read or
 * whose process id is not the model key: its message shows here and the drawing stays. Closing with unsaved
 * changes asks first.
 * Test hooks: `modeler` (`data-state`, `data-dirty`), `modeler-canvas`, `modeler-save`, `modeler-undo`, `modeler-redo`,
 * `modeler-fit`, `modeler-import`, `modeler-download`, `modeler-error`, `modeler-panel`, `modeler-prop-<field>`.
 */
export function BpmnModelerDialog({ model, onSaved, onClose }: {
  model: Pick<Model, 'id' | 'name' | 'modelKey'>;
  /** after each save (the list shows the model's new version) */
  onSaved?: () => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  // read once: a save refreshes the model's list, not the diagram being drawn
  const detail = useQuery({
    queryKey: ['flow', 'modeler', model.id],
    queryFn: () => request<Model>(crudPaths(flowModelResource).detail, { query: { id: model.id } }),
    staleTime: Infinity,
    gcTime: 0,
  });
  const host = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [modeler, setModeler] = useState<ModelerHandle | null>(null);
  const [status, setStatus] = useState<Status>({ state: 'loading' });
  const [dirty, setDirty] = useState(false);
  const [stack, setStack] = useState({ undo: false, redo: false });
  const [selected, setSelected] = useState<DiagramElement | null>(null);
  // bumped after every command: the panel reads the diagram again
  const [, setVersion] = useState(0);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const modelKey = model.modelKey ?? '';
  const xml = detail.data ? (detail.data.xml ?? '') : null;

  useEffect(() => {
    const node = host.current;
    if (!node || xml === null) return undefined;
    let cancelled = false;
    let made: ModelerHandle | null = null;
    // Esc belongs to the canvas (cancel a tool, an edit), not to the dialog
    const keepEscape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') e.stopPropagation();
    };
    node.addEventListener('keydown', keepEscape);
    void (async () => {
      try {
        const { Modeler, flowableDescriptor, translateModule } = await import('./bpmnModeler');
        if (cancelled) return;
        const m = new Modeler({ container: node, moddleExtensions: { flowable: flowableDescriptor }, additionalModules: [translateModule(i18n.language)] });
        made = {
          importXML: (x) => m.importXML(x),
          saveXML: (o) => m.saveXML(o),
          destroy: () => m.destroy(),
          canvas: m.get<Canvas>('canvas'),
          commandStack: m.get<CommandStack>('commandStack'),
          services: { modeling: m.get<Modeling>('modeling'), moddle: m.get<Moddle>('moddle') },
        };
        const handle = made;
        const events = m.get<EventBus>('eventBus');
        events.on<{ trigger: string }>('commandStack.changed', ({ trigger }) => {
          if (trigger !== 'clear') setDirty(true);
          setStack({ undo: handle.commandStack.canUndo(), redo: handle.commandStack.canRedo() });
          setVersion((v) => v + 1);
        });
        events.on<{ newSelection: DiagramElement[] }>('selection.changed', ({ newSelection }) => {
          const one = newSelection.length === 1 ? newSelection[0]! : null;
          setSelected(one?.labelTarget ?? one);
        });
        // an element removed (or an undone creation) must not stay in the panel
        events.on<{ element: DiagramElement }>('shape.remove', ({ element }) => setSelected((s) => (s?.id === element.id ? null : s)));
        events.on<{ element: DiagramElement }>('connection.remove', ({ element }) => setSelected((s) => (s?.id === element.id ? null : s)));
        await m.importXML(xml);
        if (cancelled) return;
        handle.canvas.zoom('fit-viewport');
        setModeler(handle);
        setDirty(false);
        setStatus({ state: 'ready' });
      } catch (err) {
        if (!cancelled) setStatus({ state: 'failed', message: errorText(err) });
      }
    })();
    return () => {
      cancelled = true;
      node.removeEventListener('keydown', keepEscape);
      made?.destroy();
      setModeler(null);
    };
  }, [xml]);

  // a reload or a closed window would lose the drawing too
  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const close = () => {
    if (!dirty) {
      onClose();
      return;
    }
    confirmInDialog(modal, {
      title: t('flow.model.unsaved'),
      content: t('flow.model.discardConfirm'),
      okText: t('flow.model.discard'),
      okButtonProps: { danger: true, ...testId('confirm-ok') },
      cancelText: t('common.cancel'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: onClose,
    });
  };

  const save = async () => {
    if (!modeler) return;
    setSaving(true);
    setSaveError(null);
    try {
      const { xml: drawn } = await modeler.saveXML({ format: true });
      await request<unknown>(crudPaths(flowModelResource).submit, { method: 'POST', json: { id: model.id, xml: drawn }, silent: true });
      setDirty(false);
      void message.success(t('flow.model.saved'));
      void queryClient.invalidateQueries({ queryKey: resourceKeys.all(flowModelResource.path) });
      onSaved?.();
    } catch (err) {
      // the diagram's own message (data.xml: key mismatch, unreadable BPMN), else the answer's
      setSaveError(fieldErrorsOf(err)?.xml ?? errorText(err));
    } finally {
      setSaving(false);
    }
  };

  const download = async () => {
    if (!modeler) return;
    const { xml: drawn } = await modeler.saveXML({ format: true });
    const url = URL.createObjectURL(new Blob([drawn ?? ''], { type: 'application/xml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${modelKey || 'process'}.bpmn20.xml`;
    a.click();
    URL.revokeObjectURL(url);
  };

  const importFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file || !modeler) return;
    const { xml: before } = await modeler.saveXML({ format: false });
    try {
      await modeler.importXML(await file.text());
      modeler.canvas.zoom('fit-viewport');
      setSelected(null);
      setDirty(true);
      void message.success(t('flow.model.imported', { name: file.name }));
    } catch (err) {
      // a failed import leaves an empty canvas: the drawing comes back
      if (before) await modeler.importXML(before).catch(() => undefined);
      void message.error(t('flow.model.importFailed', { msg: errorText(err) }));
    }
  };

  const panelElement = modeler ? (selected ?? modeler.canvas.getRootElement()) : null;
  return (
    <Modal
      open
      title={
        <Space>
          {t('flow.model.designTitle', { name: model.name ?? modelKey })}
          {dirty && <Tag color="warning">{t('flow.model.unsaved')}</Tag>}
        </Space>
      }
      onCancel={close}
      maskClosable={false}
      width="100vw"
      className="flow-modeler-modal"
      style={{ top: 0, maxWidth: '100vw', paddingBottom: 0 }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} {...testId('modeler-cancel')}>{t('common.cancel')}</Button>,
        <Button key="save" type="primary" icon={<SaveOutlined />} loading={saving} disabled={!modeler} onClick={() => void save()} {...testId('modeler-save')}>
          {t('flow.model.save')}
        </Button>,
      ]}
    >
      <div className="flow-modeler" {...testId('modeler')} data-state={status.state} data-dirty={dirty}>
        <Space wrap className="flow-modeler-toolbar">
          <ToolButton title={t('flow.model.undo')} icon={<UndoOutlined />} disabled={!stack.undo} onClick={() => modeler?.commandStack.undo()} id="modeler-undo" />
          <ToolButton title={t('flow.model.redo')} icon={<RedoOutlined />} disabled={!stack.redo} onClick={() => modeler?.commandStack.redo()} id="modeler-redo" />
          <ToolButton title={t('flow.model.fit')} icon={<CompressOutlined />} disabled={!modeler} onClick={() => modeler?.canvas.zoom('fit-viewport')} id="modeler-fit" />
          <Button icon={<FolderOpenOutlined />} disabled={!modeler} onClick={() => fileInput.current?.click()} {...testId('modeler-import')}>{t('flow.model.importFile')}</Button>
          <Button icon={<CloudDownloadOutlined />} disabled={!modeler} onClick={() => void download()} {...testId('modeler-download')}>{t('flow.model.download')}</Button>
          <input ref={fileInput} type="file" accept={BPMN_FILES} hidden onChange={(e) => void importFile(e)} {...testId('modeler-file')} />
        </Space>
        {detail.isError && <Alert type="error" showIcon message={t('flow.model.loadFailed', { msg: errorText(detail.error) })} />}
        {status.state === 'failed' && <Alert type="error" showIcon message={t('flow.model.loadFailed', { msg: status.message })} {...testId('modeler-error')} />}
        {saveError && (
          <Alert type="error" showIcon closable onClose={() => setSaveError(null)} message={t('flow.model.saveFailed', { msg: saveError })} {...testId('modeler-error')} />
        )}
        <div className="flow-modeler-body">
          <Spin spinning={status.state === 'loading' && !detail.isError} tip={t('flow.model.loading')} wrapperClassName="flow-modeler-canvas-wrap">
            <div ref={host} className="flow-modeler-canvas" {...testId('modeler-canvas')} />
          </Spin>
          <aside className="flow-modeler-side">
            {modeler && panelElement && (
              <ModelerPanel key={panelElement.id} element={panelElement} services={modeler.services} modelKey={modelKey} />
            )}
          </aside>
        </div>
      </div>
    </Modal>
  );
}

function ToolButton({ title, icon, disabled, onClick, id }: { title: string; icon: ReactNode; disabled: boolean; onClick: () => void; id: string }) {
  return (
    <Tooltip title={title}>
      <Button icon={icon} disabled={disabled} onClick={onClick} aria-label={title} {...testId(id)} />
    </Tooltip>
  );
}

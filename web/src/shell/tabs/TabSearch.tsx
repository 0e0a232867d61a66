import { Empty, Input, Menu, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchTabs, type TabEntry } from './tabSearch';

/** Type to filter the open tabs; Enter shows the first match, a click shows the one clicked. */
export function TabSearch({ tabs, onPick, onClose }: { tabs: TabEntry[]; onPick: (key: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const found = matchTabs(tabs, text);
  return (
    <Modal open title={t('tabs.searchTitle')} footer={null} onCancel={onClose} destroyOnHidden width={420}>
      <Input.Search
        autoFocus
        allowClear
        placeholder={t('tabs.searchPlaceholder')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onSearch={() => {
          if (found[0]) onPick(found[0].key);
        }}
        data-testid="tab-search-input"
      />
      {found.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tabs.noMatch')} data-testid="tab-search-empty" />
      ) : (
        <Menu
          selectable={false}
          style={{ borderInlineEnd: 'none', marginTop: 8, maxHeight: 360, overflowY: 'auto' }}
          onClick={({ key }) => onPick(key)}
          items={found.map((tab) => ({
            key: tab.key,
            label: (
              <span data-testid="tab-search-item" data-key={tab.key}>
                {tab.label} <span style={{ opacity: 0.45, fontSize: 12, marginInlineStart: 8 }}>{tab.key}</span>
              </span>
            ),
          }))}
        />
      )}
    </Modal>
  );
}

import { ColorPicker } from 'antd';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../store/settings';
import { PRIMARY_PRESETS } from './themes';

/** antd's ColorPicker around the header button; mounted on the first click, so it starts open. */
export function ColorPickerPopover({ trigger }: { trigger: ReactElement }) {
  const { t } = useTranslation();
  const primary = useSettings((s) => s.primaryColor);
  const setPrimary = useSettings((s) => s.setPrimaryColor);
  const [open, setOpen] = useState(true);
  return (
    <ColorPicker
      open={open}
      onOpenChange={setOpen}
      value={primary}
      disabledAlpha
      disabledFormat
      format="hex"
      presets={[{ label: t('chrome.colour.presets'), colors: [...PRIMARY_PRESETS] }]}
      onChangeComplete={(colour) => setPrimary(colour.toHexString())}
      placement="bottomRight"
    >
      {trigger}
    </ColorPicker>
  );
}

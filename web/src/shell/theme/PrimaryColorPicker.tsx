import { BgColorsOutlined } from '@ant-design/icons';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../store/settings';
import { HeaderIconButton } from '../layout/header/HeaderIconButton';

const loadPopover = () => import('./ColorPickerPopover');
const ColorPickerPopover = lazy(async () => ({ default: (await loadPopover()).ColorPickerPopover }));

/**
 * Spec 2 colour picker: the primary colour (default #52D577) of every antd component and the themes.
 * antd's ColorPicker is heavy for a rarely used control, so it loads on the first click (and is fetched
 * ahead when the pointer or focus reaches the button).
 */
export function PrimaryColorPicker() {
  const { t } = useTranslation();
  const primary = useSettings((s) => s.primaryColor);
  const [armed, setArmed] = useState(false);

  const trigger = (
    <HeaderIconButton
      label={t('chrome.colour.label')}
      icon={<BgColorsOutlined />}
      onPointerEnter={() => void loadPopover()}
      onFocus={() => void loadPopover()}
      onClick={armed ? undefined : () => setArmed(true)}
      data-testid="colour-picker"
    >
      <span className="shell-colour-dot" style={{ background: primary }} aria-hidden="true" data-testid="colour-current" />
    </HeaderIconButton>
  );
  if (!armed) return trigger;
  return (
    <Suspense fallback={trigger}>
      <ColorPickerPopover trigger={trigger} />
    </Suspense>
  );
}

import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { HeaderIconButton } from './HeaderIconButton';

function subscribe(onChange: () => void): () => void {
  document.addEventListener('fullscreenchange', onChange);
  return () => document.removeEventListener('fullscreenchange', onChange);
}

/** Whether the page is in full screen; follows the browser, so leaving with Esc is seen too. */
export function useFullscreen(): boolean {
  return useSyncExternalStore(subscribe, () => document.fullscreenElement !== null, () => false);
}

/** Enters or leaves full screen (Fullscreen API); the icon follows the actual state. */
export function FullscreenToggle() {
  const { t } = useTranslation();
  const fullscreen = useFullscreen();
  if (!document.fullscreenEnabled) return null;
  const toggle = () => {
    const change = fullscreen ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    // refused (no user gesture, policy): the state simply stays as it is
    change.catch(() => undefined);
  };
  return (
    <HeaderIconButton
      label={t(fullscreen ? 'chrome.header.exitFullscreen' : 'chrome.header.fullscreen')}
      icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      onClick={toggle}
      aria-pressed={fullscreen}
      data-testid="fullscreen-toggle"
    />
  );
}

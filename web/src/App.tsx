import type { Lang } from '@console/contract/i18n';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, type ThemeConfig } from 'antd';
import type { Locale } from 'antd/es/locale';
// Vite 8: antd's CommonJS locale re-exports resolve wrongly; import the ES modules.
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { RouterProvider } from 'react-router';
import { queryClient } from './api/queryClient';
import { useLang } from './i18n';
import { router } from './router';
import { FeedbackBridge } from './shell/FeedbackBridge';

const ANTD_LOCALES: Record<Lang, Locale> = { zh: zhCN, en: enUS };

/** Spec 9: default colour #52D577. */
const THEME: ThemeConfig = { token: { colorPrimary: '#52D577' } };

export function App() {
  const lang = useLang();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={ANTD_LOCALES[lang]} theme={THEME}>
        <AntApp>
          <FeedbackBridge />
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}

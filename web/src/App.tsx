import type { Lang } from '@console/contract/i18n';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
// Vite 8: antd's CommonJS locale re-exports resolve wrongly; import the ES modules.
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { RouterProvider } from 'react-router';
import { queryClient } from './api/queryClient';
import { useLang } from './i18n';
import { router } from './router';
import { FeedbackBridge } from './shell/FeedbackBridge';
import { useAppTheme } from './shell/theme/documentTheme';
import { VersionNotice } from './shell/tools/VersionNotice';

const ANTD_LOCALES: Record<Lang, Locale> = { zh: zhCN, en: enUS };

export function App() {
  const lang = useLang();
  // spec 2, 9: the chosen theme and primary colour (default theme-d2, #52D577)
  const theme = useAppTheme();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={ANTD_LOCALES[lang]} theme={theme}>
        <AntApp>
          <FeedbackBridge />
          <VersionNotice />
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}

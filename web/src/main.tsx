// antd's React 19 compatibility patch must load before antd.
import '@ant-design/v5-patch-for-react-19';
import 'antd/dist/reset.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { consoleConfigQuery } from './api/consoleConfig';
import { queryClient } from './api/queryClient';
import { App } from './App';
import './i18n';
import { router } from './router';
import { syncDocumentTitle } from './shell/pageTitle';
import { followThemeSettings } from './shell/theme/documentTheme';

// zod (in the lazily loaded resource definitions) probes for `new Function` unless told it is jitless, and the
// console's CSP (script-src 'self') reports the probe as a violation; zod reads this before its first schema
(globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig = { jitless: true };
import { installErrorCapture } from './shell/tools/errorCapture';
import { followOtherTabs } from './store/session';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

installErrorCapture();
// the switches and the server's display zone, early: the login page and the date pickers need them
void queryClient.prefetchQuery(consoleConfigQuery);
followOtherTabs();
followThemeSettings();
syncDocumentTitle(router);
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

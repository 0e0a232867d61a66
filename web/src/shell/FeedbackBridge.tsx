import { App } from 'antd';
import { useLayoutEffect } from 'react';
import { registerMessageApi } from './feedback';

/** Renders nothing; hands the App message API to non-React code. Mount it before the router. */
export function FeedbackBridge() {
  const { message } = App.useApp();
  useLayoutEffect(() => registerMessageApi(message), [message]);
  return null;
}

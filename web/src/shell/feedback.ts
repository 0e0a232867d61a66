import type { MessageInstance } from 'antd/es/message/interface';

/**
 * Lets code outside React (the API client) show toasts through the App-scoped message API, so toasts
 * follow the ConfigProvider theme and locale. <FeedbackBridge> registers the instance.
 */
let messageApi: MessageInstance | null = null;

export function registerMessageApi(api: MessageInstance): void {
  messageApi = api;
}

/** Shows an error toast; identical texts shown together collapse into one. */
export function toastError(text: string): void {
  void messageApi?.error({ content: text, key: text });
}

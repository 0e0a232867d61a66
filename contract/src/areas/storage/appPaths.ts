/** The phone app's cloud-storage calls, and the payment providers' notifications (docs/app-api.md). */
export const STORAGE_APP_API = {
  plans: '/api/app/storage/plans',
  orders: '/api/app/storage/orders',
  placeOrder: '/api/app/storage/order',
} as const;

/** where WeChat Pay and Alipay post a payment's outcome: `/api/pay/notify/{channel}/{tenantId}` */
export const PAY_NOTIFY_PATH = '/api/pay/notify';

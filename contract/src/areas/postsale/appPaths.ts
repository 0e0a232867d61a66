/** The phone app's calls of the after-sales area (docs/app-api.md): sign-up, password, bindings, feedback. */
export const POSTSALE_APP_API = {
  smsCode: '/api/app/auth/sms-code',
  register: '/api/app/auth/register',
  resetPassword: '/api/app/auth/reset-password',
  devices: '/api/app/device/list',
  bind: '/api/app/device/bind',
  share: '/api/app/device/share',
  unbind: '/api/app/device/unbind',
  imageUpload: '/api/app/file/upload-image',
  feedbackSubmit: '/api/app/feedback/submit',
  feedbackList: '/api/app/feedback/list',
  feedbackDetail: '/api/app/feedback/detail',
} as const;

/** what an SMS code is for: signing up, or setting a new password */
export const SMS_PURPOSE = { register: 'register', reset: 'reset' } as const;
export type SmsPurpose = (typeof SMS_PURPOSE)[keyof typeof SMS_PURPOSE];

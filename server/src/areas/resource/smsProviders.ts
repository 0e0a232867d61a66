import type { Config } from '../../core/config.js';
import { sdkErrorReason, splitEndpoint } from '../../core/cloudApi.js';

/** One message to send: the configuration's provider account and template, the phones and the template's parameters. */
export interface SmsMessage {
  accessKey: string;
  secretKey: string;
  appId: string | null;
  regionId: string | null;
  signName: string | null;
  templateId: string;
  phones: string[];
  params: Record<string, string>;
}

export interface SmsResult {
  success: boolean;
  code: string;
  msg: string;
}

/** A provider refused the message or could not be reached. */
export class SmsError extends Error {}


/**
 * Aliyun SMS through its official SDK (loaded on first use: it is large). Template parameters go as the
 * JSON object the template names them by.
 */
export async function sendAliyun(m: SmsMessage, config: Config): Promise<SmsResult> {
  const [sdk, openapi] = await Promise.all([import('@alicloud/dysmsapi20170525'), import('@alicloud/openapi-client')]);
  const Client = ((sdk.default as unknown as { default?: unknown }).default ?? sdk.default) as typeof sdk.default;
  const endpoint = splitEndpoint(config.smsEndpoints.aliyun ?? 'https://dysmsapi.aliyuncs.com');
  const client = new Client(new openapi.Config({
    accessKeyId: m.accessKey, accessKeySecret: m.secretKey, regionId: m.regionId || 'cn-hangzhou',
    endpoint: endpoint.host, protocol: endpoint.https ? 'https' : 'http', readTimeout: 10_000, connectTimeout: 5_000,
  }) as never);
  try {
    const res = await client.sendSms(new sdk.SendSmsRequest({
      phoneNumbers: m.phones.join(','), signName: m.signName ?? '', templateCode: m.templateId, templateParam: JSON.stringify(m.params),
    }));
    const body = res.body;
    if (body?.code !== 'OK') throw new SmsError(`${body?.code ?? 'unknown'} ${body?.message ?? ''}`.trim());
    return { success: true, code: body.code, msg: body.bizId ?? body.message ?? 'OK' };
  } catch (e) {
    throw e instanceof SmsError ? e : new SmsError(sdkErrorReason(e));
  }
}

/**
 * Tencent Cloud SMS (API 2021-01-11) through its official SDK (loaded on first use). Its templates take
 * positional parameters: the values in the order given. `appId` is the SMS application's SdkAppId.
 */
export async function sendTencent(m: SmsMessage, config: Config): Promise<SmsResult> {
  const mod = await import('tencentcloud-sdk-nodejs-sms');
  const sms = mod.sms ?? (mod as unknown as { default: typeof mod }).default.sms;
  const endpoint = splitEndpoint(config.smsEndpoints.tencent ?? 'https://sms.tencentcloudapi.com');
  const client = new sms.v20210111.Client({
    credential: { secretId: m.accessKey, secretKey: m.secretKey },
    region: m.regionId || 'ap-guangzhou',
    profile: { httpProfile: { endpoint: endpoint.host, protocol: endpoint.https ? 'https://' : 'http://', reqTimeout: 10 } },
  });
  try {
    const res = await client.SendSms({
      PhoneNumberSet: m.phones, SmsSdkAppId: m.appId ?? '', SignName: m.signName ?? '', TemplateId: m.templateId,
      TemplateParamSet: Object.values(m.params),
    });
    const failed = (res.SendStatusSet ?? []).filter((s) => s.Code !== 'Ok');
    if (failed.length) throw new SmsError(failed.map((s) => `${s.PhoneNumber}: ${s.Code} ${s.Message}`).join('; '));
    return { success: true, code: 'OK', msg: res.RequestId ?? 'OK' };
  } catch (e) {
    throw e instanceof SmsError ? e : new SmsError(sdkErrorReason(e));
  }
}

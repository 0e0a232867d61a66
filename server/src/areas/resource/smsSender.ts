import type { FastifyRequest } from 'fastify';
import { serviceKey } from '../../core/services.js';
import type { SmsResult } from './smsProviders.js';

/** Text messages for other areas (an app's sign-up code), through the tenant's enabled SMS configuration. */
export interface SmsSender {
  /** undefined when the tenant has no enabled configuration; a provider's refusal is thrown as a 400 */
  send(tenantId: string, phones: string[], params: Record<string, string>, req: FastifyRequest): Promise<SmsResult | undefined>;
}

export const SMS = serviceKey<SmsSender>('resource.sms');

import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '@console/contract';

/** Spec 5 "Phone helper": what is wrong with a phone number, or null. */
export type PhoneProblem = 'empty' | 'length' | 'format';

const MOBILE = /^1\d{10}$/;

export function phoneProblem(value: string | null | undefined): PhoneProblem | null {
  const phone = (value ?? '').trim();
  if (!phone) return 'empty';
  if (phone.length !== 11) return 'length';
  return MOBILE.test(phone) ? null : 'format';
}

/** Spec 5/9: avatars are jpg or png of at most 500 kb. The server checks the content again. */
export type AvatarProblem = 'type' | 'size';

export function avatarProblem(file: { type: string; size: number }): AvatarProblem | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'type';
  return file.size > AVATAR_MAX_BYTES ? 'size' : null;
}

import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '@console/contract';

export { type PhoneProblem, phoneProblem } from '@console/contract';

/** Spec 5/9: avatars are jpg or png of at most 500 kb. The server checks the content again. */
export type AvatarProblem = 'type' | 'size';

export function avatarProblem(file: { type: string; size: number }): AvatarProblem | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'type';
  return file.size > AVATAR_MAX_BYTES ? 'size' : null;
}

import { describe, expect, it } from 'vitest';
import { displayName } from './userName';

const admin = { real_name: '管理员', nick_name: 'Administrator', user_name: 'admin', account: 'admin' };

describe('displayName', () => {
  it('names a user by the real name in Chinese and by the nickname in English', () => {
    expect(displayName(admin, 'zh')).toBe('管理员');
    expect(displayName(admin, 'en')).toBe('Administrator');
  });

  it('falls back to the other name, then to the account', () => {
    expect(displayName({ ...admin, nick_name: '' }, 'en')).toBe('管理员');
    expect(displayName({ ...admin, real_name: ' ' }, 'zh')).toBe('Administrator');
    expect(displayName({ ...admin, real_name: '', nick_name: '' }, 'en')).toBe('admin');
    expect(displayName(null, 'zh')).toBe('');
  });
});

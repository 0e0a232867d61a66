import { describe, expect, it } from 'vitest';
import { versionChange } from './versionWatch';

describe('versionChange', () => {
  it('takes the first answer as the running version', () => {
    expect(versionChange(null, '1.0.0', null)).toBe('baseline');
  });

  it('announces a different version once', () => {
    expect(versionChange('1.0.0', '1.0.0', null)).toBe('same');
    expect(versionChange('1.0.0', '1.1.0', null)).toBe('new');
    expect(versionChange('1.0.0', '1.1.0', '1.1.0')).toBe('same');
    expect(versionChange('1.0.0', '1.2.0', '1.1.0')).toBe('new');
  });
});

import { deviceValueItems } from '@console/contract/areas/device/index';
import { describe, expect, it } from 'vitest';
import { resultText } from '../src/areas/device/control.js';

describe('a device\'s values for people', () => {
  it('labels known values in each language, names an unknown one by its key, and never shows JSON', () => {
    const values = { firmware_extra: { a: 1, b: 'x' }, battery: 80, enabled: false, lock_state: 0 };
    expect(deviceValueItems(values, 'zh')).toEqual([
      { key: 'battery', label: '电量', value: '80%' },
      { key: 'enabled', label: '启用', value: '否' },
      { key: 'lock_state', label: '门锁状态', value: '未上锁' },
      { key: 'firmware_extra', label: 'firmware_extra', value: 'a: 1, b: x' },
    ]);
    expect(deviceValueItems(values, 'en').map((i) => `${i.label}=${i.value}`)).toEqual(['Battery=80%', 'Enabled=No', 'Lock state=Unlocked', 'firmware_extra=a: 1, b: x']);
  });

  it('translates the server\'s own notes on a command and keeps a device\'s own words', () => {
    expect(resultText('the device has no IoT credentials', 'zh')).toBe('设备没有物联网凭据, 命令未下发');
    expect(resultText('the device gateway is not running', 'en')).toBe('The device gateway is not running; the command was not sent');
    expect(resultText('ok', 'zh')).toBe('已执行');
    expect(resultText('{}', 'en')).toBe('Done');
    expect(resultText('{"code":7}', 'zh')).toBe('错误码: 7');
    expect(resultText('{"enabled":false}', 'zh')).toBe('启用: 否');
    expect(resultText('unsupported action', 'zh')).toBe('unsupported action');
    expect(resultText('{"cut at 255', 'en')).toBe('{"cut at 255');
    expect(resultText(null, 'en')).toBeNull();
  });
});

import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { displayZone, formatInZone, setDisplayZone } from './displayZone';
import './pickerZone';

afterEach(() => setDisplayZone(undefined));

describe('display zone', () => {
  it('formats an instant as the wall time of the zone', () => {
    const at = new Date(Date.UTC(2026, 10, 23, 4, 29, 7));
    expect(formatInZone(at, 'Asia/Shanghai')).toBe('2026-11-23 12:29:07');
    expect(formatInZone(at, 'America/New_York')).toBe('2026-11-22 23:29:07');
    expect(formatInZone(at, 'UTC')).toBe('2026-11-23 04:29:07');
  });

  it('falls back to the browser zone for an unknown zone', () => {
    const at = new Date(Date.UTC(2026, 10, 23, 4, 29, 7));
    expect(formatInZone(at, 'Mars/Olympus')).toBe(dayjs(at).format('YYYY-MM-DD HH:mm:ss'));
  });

  it('gives the date pickers "now" in the display zone', () => {
    setDisplayZone('Asia/Shanghai');
    expect(displayZone()).toBe('Asia/Shanghai');
    const now = dayjs().tz();
    expect(now.format('YYYY-MM-DD HH:mm')).toBe(formatInZone(now.toDate(), 'Asia/Shanghai').slice(0, 16));
    expect(formatInZone(new Date(Date.UTC(2026, 0, 1, 0, 0, 0)))).toBe('2026-01-01 08:00:00');
    setDisplayZone('nonsense');
    expect(displayZone()).toBeUndefined();
  });
});

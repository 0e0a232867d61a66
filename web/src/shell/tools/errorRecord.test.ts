import { describe, expect, it } from 'vitest';
import { appendCapped, ERROR_LOG_CAP, errorRecordOf, isBenign } from './errorRecord';

const at = new Date(2026, 4, 6, 7, 8, 9);

describe('errorRecordOf', () => {
  it('records an Error with its message, stack, page and local time', () => {
    const err = new TypeError('x is undefined');
    const r = errorRecordOf({ error: err, info: 'app.js:1:2' }, 'http://h/wel/index', at);
    expect(r).toMatchObject({ type: 'error', message: 'TypeError: x is undefined', url: 'http://h/wel/index', time: '2026-05-06 07:08:09', info: 'app.js:1:2' });
    expect(r.stack).toContain('x is undefined');
  });

  it('stamps the time in the server\'s display zone when it is known', () => {
    const instant = new Date(Date.UTC(2026, 4, 6, 4, 29, 0));
    expect(errorRecordOf({ error: 'x' }, 'u', instant, 'Asia/Shanghai').time).toBe('2026-05-06 12:29:00');
    expect(errorRecordOf({ error: 'x' }, 'u', instant, 'America/New_York').time).toBe('2026-05-06 00:29:00');
  });

  it('records thrown strings, objects and bare event messages', () => {
    expect(errorRecordOf({ error: 'plain' }, 'u', at).message).toBe('plain');
    expect(errorRecordOf({ error: { code: 7 } }, 'u', at).message).toBe('{"code":7}');
    expect(errorRecordOf({ error: null, message: 'Script error.' }, 'u', at)).toMatchObject({ message: 'Script error.' });
    expect(errorRecordOf({ error: null, message: 'Script error.' }, 'u', at)).not.toHaveProperty('stack');
  });

  it('cuts texts to what the server accepts', () => {
    const r = errorRecordOf({ error: 'm'.repeat(30_000) }, 'u'.repeat(3000), at);
    expect(r.message).toHaveLength(20_000);
    expect(r.url).toHaveLength(2000);
  });

  it('treats ResizeObserver loop notices as noise', () => {
    expect(isBenign({ message: 'ResizeObserver loop completed with undelivered notifications.' })).toBe(true);
    expect(isBenign({ message: 'TypeError: boom' })).toBe(false);
  });
});

describe('appendCapped', () => {
  it('keeps the newest records up to the cap', () => {
    expect(appendCapped([1, 2, 3], 4, 3)).toEqual([2, 3, 4]);
    expect(appendCapped([1], 2, 3)).toEqual([1, 2]);
    expect(ERROR_LOG_CAP).toBe(200);
  });
});

import { describe, expect, it } from 'vitest';
import { idChunks } from '../src/core/resource/io/export.js';

/** The export walks the ids of its snapshot (one comma-joined text) a chunk at a time. */
describe('idChunks', () => {
  it('gives every id once, in order, `size` at a time, the last chunk holding the rest', () => {
    expect([...idChunks('1,22,333,4444,55555', 2)]).toEqual([['1', '22'], ['333', '4444'], ['55555']]);
    expect([...idChunks('1,2,3,4', 2)]).toEqual([['1', '2'], ['3', '4']]);
    expect([...idChunks('9007199254740993', 5)]).toEqual([['9007199254740993']]);
  });

  it('gives nothing for no rows', () => {
    expect([...idChunks('', 5000)]).toEqual([]);
  });

  it('walks a million ids in chunks of 5,000', () => {
    const text = Array.from({ length: 1_000_000 }, (_, i) => String(1_000_000_000_000 + i)).join(',');
    let count = 0;
    let last = '';
    for (const chunk of idChunks(text, 5000)) {
      expect(chunk.length).toBe(5000);
      count += chunk.length;
      last = chunk.at(-1)!;
    }
    expect(count).toBe(1_000_000);
    expect(last).toBe('1000000999999');
  });
});

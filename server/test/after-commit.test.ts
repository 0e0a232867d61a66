import { describe, expect, it } from 'vitest';
import { afterCommitQueue } from '../src/core/resource/afterCommit.js';

/** The engine's after-commit steps: single steps in order, and one step per key over every item collected under it. */
describe('afterCommitQueue', () => {
  it('runs a keyed step once with all its items, in the place of its first item', async () => {
    const steps: Array<() => Promise<void> | void> = [];
    const q = afterCommitQueue(steps);
    const ran: string[] = [];
    q.afterCommit(() => void ran.push('first'));
    for (const sn of ['A', 'B', 'C']) q.afterCommitWith('send', sn, (items) => void ran.push(`send ${items.join(',')}`));
    q.afterCommit(() => void ran.push('last'));
    q.afterCommitWith('other', 1, (items) => void ran.push(`other ${items.length}`));
    q.afterCommitWith('send', 'D', () => void ran.push('never: the key\'s first step runs'));
    expect(steps).toHaveLength(4);
    for (const s of steps) await s();
    expect(ran).toEqual(['first', 'send A,B,C,D', 'last', 'other 1']);
  });
});

import { describe, expect, it } from 'vitest';
import { EMPTY, joined, stmt, toQuery, verbatim } from '../src/core/db/raw.js';

/** core/db/raw.ts: the statements a hot path runs past drizzle, numbered as PostgreSQL takes them */
describe('raw statements', () => {
  it('numbers the values in order through spliced statements; verbatim text is no parameter; undefined is null', () => {
    const set = stmt`, end_time = ${'t'}::timestamptz`;
    const writes = [stmt`update a set x = ${1}${set} where id = ${'7'}`, stmt`insert into b (${verbatim('c, d')}) values (${undefined}, ${[1, 2]})`];
    const q = toQuery(stmt`with ${joined(writes.map((w, i) => stmt`${verbatim(`w${i}`)} as (${w})`), ', ')} select 1${EMPTY}`);
    expect(q.text).toBe('with w0 as (update a set x = $1, end_time = $2::timestamptz where id = $3), w1 as (insert into b (c, d) values ($4, $5)) select 1');
    expect(q.params).toEqual([1, 't', '7', null, [1, 2]]);
  });

  it('a value that only looks like text is still a parameter', () => {
    expect(toQuery(stmt`select ${"1; drop table x"}`)).toEqual({ text: 'select $1', params: ['1; drop table x'] });
  });
});

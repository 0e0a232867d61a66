import { Readable } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** Runs `<statement> STDIN WITH (FORMAT csv)` (e.g. `COPY t (a, b) FROM`) over `text`; answers the milliseconds it took. */
export async function copyCsv(c: pg.Client, statement: string, text: string): Promise<number> {
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const stream = c.query(copyFrom(`${statement} STDIN WITH (FORMAT csv)`));
    stream.on('finish', resolve).on('error', reject);
    Readable.from([text]).pipe(stream);
  });
  return performance.now() - t0;
}

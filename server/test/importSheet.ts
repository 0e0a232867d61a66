import { expect } from 'vitest';
import { until } from './gateway-fixture.js';
import { BASIC, type Harness } from './harness.js';
import { multipart } from './multipart.js';

export interface ImportJob {
  status: string;
  failed: number;
  succeeded: number;
  errors: Array<{ row: number; message: string }>;
}

/** Imports a CSV sheet through `path` (multipart `file`, English messages) and waits for the job's end. */
export function importCsv(h: Harness, token: string, path: string, csv: string): Promise<ImportJob> {
  return importFile(h, token, path, Buffer.from(csv), 'rows.csv');
}

/** Imports a file (.csv or .xlsx by its name) through `path` and waits for the job's end. */
export async function importFile(h: Harness, token: string, path: string, data: Buffer, filename: string): Promise<ImportJob> {
  const type = filename.endsWith('.csv') ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  const { payload, contentType } = multipart([{ name: 'file', filename, type, data }]);
  const res = await h.server.app.inject({
    method: 'POST', url: path, payload, headers: { authorization: BASIC, 'blade-auth': `bearer ${token}`, 'content-type': contentType, 'accept-language': 'en' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = (res.json() as { data: { id: string } }).data.id;
  let job: ImportJob | undefined;
  const progress = path.replace(/\/import(-file)?$/, '/get-upload-progress');
  await until(async () => {
    job = (await h.call<ImportJob>('GET', progress, { token, query: { id } })).body.data;
    return job.status !== 'running';
  }, 20_000, 'the import');
  return job!;
}

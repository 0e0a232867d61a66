import { type ChildProcess, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Row = Record<string, unknown>;
const HERE = dirname(fileURLToPath(import.meta.url));

/** devices-fleet.ts in a process of its own (IPC): its counters and RSS as it reports them, and a wait for its messages */
export function spawnDevices(argv: string[]) {
  const child: ChildProcess = fork(join(HERE, 'devices-fleet.ts'), argv, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const state = { counters: {} as Record<string, number>, rssMb: 0, peakRssMb: 0, last: {} as Record<string, unknown> };
  const waiters: Array<{ type: string; resolve: (m: Row) => void }> = [];
  child.on('message', (m: Row) => {
    if (m.counters) state.counters = m.counters as Record<string, number>;
    if (typeof m.rssMb === 'number') {
      state.rssMb = m.rssMb;
      state.peakRssMb = Math.max(state.peakRssMb, m.rssMb);
    }
    for (const w of waiters.filter((x) => x.type === m.type)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(m);
    }
  });
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  return {
    child, state, exited,
    wait: (type: string) => new Promise<Row>((resolve, reject) => {
      waiters.push({ type, resolve });
      void exited.then((code) => reject(new Error(`the device process exited (${code}) before '${type}'`)));
    }),
  };
}


/**
 * Close to the ceilings (issue 30): what the console does beside what its own parts do alone, in one run, paired
 * rounds, medians (a busy machine moves both sides; the ratio is what counts).
 *
 *   npm run bench:ceilings -w bench -- --measure=list|export|import|ingest|flow|idle [the measure's options]
 *
 * Each measure is a module of `ceilings/`, which names its options at its top.
 */
import { parseArgs } from 'node:util';

const MEASURES = ['list', 'export', 'import', 'ingest', 'flow', 'idle'];
const { values } = parseArgs({ strict: false, options: { measure: { type: 'string', default: 'list' } } });
const measure = String(values.measure);
if (!MEASURES.includes(measure)) throw new Error(`--measure: one of ${MEASURES.join(', ')}, got ${measure}`);
await import(`./ceilings/${measure}.js`);
process.exit(0);

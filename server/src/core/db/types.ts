import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.js';

/** The database handle: PGlite or PostgreSQL through Drizzle, with the core's schema. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

import type { Lang } from '@console/contract';
import { and, asc, eq, ne } from 'drizzle-orm';
import { type Db, type Executor, schema } from './db/index.js';
import type { Kv } from './kv.js';

const CHANNEL = 'dicts-changed';
/** A safety net for a missed invalidation; changes made through the API clear the cache at once. */
const TTL_MS = 5 * 60_000;

interface Entry {
  at: number;
  items: Promise<Map<string, { zh: string; en: string }>>;
  done: boolean;
}

const inLang = (items: Map<string, { zh: string; en: string }>, lang: Lang) => new Map([...items].map(([key, v]) => [key, v[lang]]));

/**
 * Display values of dictionary keys (`category` 1 → 通知 / Notice), cached per dictionary code. Every
 * dictionary-coded field of a record is answered with its display value beside it as `<field>Name`,
 * as BladeX's wrappers do. Writes to dictionaries call invalidate(), which reaches every instance.
 */
export class DictLabels {
  private readonly cache = new Map<string, Entry>();

  constructor(private readonly db: Db, private readonly kv: Kv) {}

  async start(): Promise<void> {
    await this.kv.subscribe(CHANNEL, () => this.cache.clear(), () => this.cache.clear());
  }

  /** key → label in the dictionary's order; `tx`: read through this transaction (PGlite's one connection) */
  async labels(code: string, lang: Lang, tx?: Executor): Promise<Map<string, string>> {
    let entry = this.cache.get(code);
    const fresh = entry !== undefined && Date.now() - entry.at <= TTL_MS;
    // A caller inside a transaction never waits for a load running elsewhere: on PGlite (one connection) that
    // load may be queued behind this very transaction, and both would wait forever. It reads through its own.
    if (fresh && tx && !entry!.done) return inLang(await this.load(code, tx), lang);
    if (!entry || !fresh) {
      const made: Entry = { at: Date.now(), items: this.load(code, tx ?? this.db), done: false };
      made.items.then(() => { made.done = true; }, () => { if (this.cache.get(code) === made) this.cache.delete(code); });
      this.cache.set(code, made);
      entry = made;
    }
    return inLang(await entry.items, lang);
  }

  /**
   * The labels this instance holds already (however old), without reading the database: for code inside a
   * transaction, which on PGlite holds the one connection. Undefined when the dictionary was not read yet.
   */
  async held(code: string, lang: Lang): Promise<Map<string, string> | undefined> {
    const items = await this.cache.get(code)?.items.catch(() => undefined);
    return items ? new Map([...items].map(([key, v]) => [key, v[lang]])) : undefined;
  }

  private async load(code: string, db: Executor): Promise<Map<string, { zh: string; en: string }>> {
    const rows = await db.select({ key: schema.dict.dictKey, zh: schema.dict.dictValue, en: schema.dict.dictValueEn })
      .from(schema.dict)
      .where(and(eq(schema.dict.code, code), ne(schema.dict.parentId, '0'), eq(schema.dict.isDeleted, 0)))
      .orderBy(asc(schema.dict.sort), asc(schema.dict.id));
    return new Map(rows.map((r) => [r.key, { zh: r.zh, en: r.en || r.zh }]));
  }

  async invalidate(): Promise<void> {
    this.cache.clear();
    await this.kv.publish(CHANNEL, String(Date.now()));
  }
}

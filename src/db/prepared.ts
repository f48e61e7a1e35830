import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Stands in for a value in a query built once; replaced by the real value at each execution. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** Placeholders typed as the values they stand for, so the builder type-checks as usual. */
export type Params<P> = { readonly [K in keyof P]: P[K] };

function placeholders<P>(): Params<P> {
  return new Proxy({} as Params<P>, { get: (_target, name) => new Placeholder(String(name)) });
}

/**
 * A query that is built and compiled once, then executed with new values: on a hot path (the
 * session lookup of every request) building and compiling the same Kysely query anew cost more
 * than running it. Only for plain scalar values: a placeholder must reach the
 * compiled parameters as it is (not inside an `in (...)` list, which Kysely expands).
 */
export class PreparedQuery<P extends Record<string, unknown>, R> {
  private compiled: CompiledQuery<R> | undefined;
  private slots: (string | null)[] = [];

  constructor(private readonly build: (db: Kysely<Database>, params: Params<P>) => Compilable<R>) {}

  /** Compiled with the first database it runs on; one process talks to one kind of database. */
  private compile(db: Kysely<Database>): CompiledQuery<R> {
    const compiled = this.build(db, placeholders<P>()).compile();
    this.slots = compiled.parameters.map((value) => (value instanceof Placeholder ? value.name : null));
    return compiled;
  }

  async execute(db: Kysely<Database>, values: P): Promise<R[]> {
    const compiled = (this.compiled ??= this.compile(db));
    const parameters = compiled.parameters.map((value, index) => {
      const slot = this.slots[index];
      return slot === null || slot === undefined ? value : values[slot];
    });
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  }

  async executeTakeFirst(db: Kysely<Database>, values: P): Promise<R | undefined> {
    const [first] = await this.execute(db, values);
    return first;
  }
}

import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { expect } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.js';
import type { TestBrowser } from './helpers.js';

/**
 * Counts the statements the app sends through its database handle (prepared ones included: the
 * count is taken as each result comes back, not as queries are built). Give `observe` to
 * buildTestApp; read `count` around the requests being measured.
 */
export class QueryCounter implements KyselyPlugin {
  count = 0;
  /** The column names of each statement's first row, in the order the results came back (none: []). */
  readonly returned: string[][] = [];

  readonly observe = (database: DatabaseHandle): DatabaseHandle => ({ ...database, db: database.db.withPlugin(this) });

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count += 1;
    this.returned.push(Object.keys(result.rows[0] ?? {}));
    return result;
  }

  /** The statements sent while `run` ran. */
  async during(run: () => Promise<unknown>): Promise<number> {
    const before = this.count;
    await run();
    return this.count - before;
  }

  /** The statements a GET of `path` sends, checking its status and that it shows `shown`. */
  async forPage(browser: TestBrowser, path: string, status: number, shown: string[] = []): Promise<number> {
    return this.during(async () => {
      const response = await browser.get(path);
      expect(response.statusCode).toBe(status);
      for (const text of shown) expect(response.body).toContain(text);
    });
  }
}

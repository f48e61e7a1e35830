import { ColumnNode, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, ReferenceNode, type RootOperationNode, SelectQueryNode, type UnknownRow } from 'kysely';
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
  /** The column names each statement selects at its top level, in the order the statements were built. */
  readonly selected: string[][] = [];

  readonly observe = (database: DatabaseHandle): DatabaseHandle => ({ ...database, db: database.db.withPlugin(this) });

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (SelectQueryNode.is(node)) {
      this.selected.push((node.selections ?? []).map(({ selection }) => (ReferenceNode.is(selection) && ColumnNode.is(selection.column) ? selection.column.column.name : '')));
    }
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count += 1;
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

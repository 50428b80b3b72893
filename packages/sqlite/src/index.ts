import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

export type Database = BetterSqlite3.Database;
export type Statement<P extends unknown[] | {} = unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;
export type Options = BetterSqlite3.Options;

/** The Node-API version better-sqlite3 13's prebuilt addon is compiled for (`NAPI_VERSION=10`). */
const NODE_API_OF_V13 = 10;

/**
 * Which better-sqlite3 this Node can run.
 *
 * better-sqlite3 12 wraps its databases and statements in `node::ObjectWrap`, compiled from the headers
 * of the Node it is built for. From Node 24 that header's destructor removes an environment cleanup hook
 * (`RemoveEnvironmentCleanupHook`), and V8 runs the destructor inside a garbage collection's weak
 * callback, where Node finds no current environment: the process aborts (`(env) != nullptr`) the first
 * time a collection frees a statement no one holds (`db.prepare(sql).get()` is enough), which the
 * stores do from their first queries on. better-sqlite3 13 is built on Node-API (`Napi::ObjectWrap`,
 * no such hook) and ships its addon prebuilt, but for Node-API 10, which Node 20 lacks (it crashes
 * there). So Node-API ≥ 10 (Node ≥ 22.14) loads 13, and Node 20 the 12 line under its alias.
 */
export function driverFor(nodeApi: number): 'better-sqlite3' | 'better-sqlite3-node20' {
  return nodeApi >= NODE_API_OF_V13 ? 'better-sqlite3' : 'better-sqlite3-node20';
}

const require = createRequire(import.meta.url);

/** better-sqlite3's `Database` constructor, from the line this Node can run (see `driverFor`). */
export const Sqlite: typeof BetterSqlite3 = require(driverFor(Number(process.versions.napi))) as typeof BetterSqlite3;

// Kysely over embedded PGlite. PGlite is a single connection, so it is lent out under a mutex: a
// transaction holds it from BEGIN to COMMIT and every other query waits its turn.
import type { PGlite } from '@electric-sql/pglite';
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  Kysely,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';

class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves with a release function once every earlier holder has released. */
  acquire(): Promise<() => void> {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return ready;
  }
}

/** One holder's view of the single PGlite connection, with its own release handle. */
class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly pg: PGlite,
    readonly release: () => void,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pg.query<R>(compiled.sql, [...compiled.parameters]);
    return result.affectedRows === undefined
      ? { rows: result.rows }
      : { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) };
  }

  // eslint-disable-next-line require-yield -- PGlite has no cursors over the wire; nothing streams.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on PGlite');
  }
}

class PGliteDriver implements Driver {
  readonly #mutex = new Mutex();

  constructor(private readonly pg: PGlite) {}

  async init(): Promise<void> {
    await this.pg.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this.pg, await this.#mutex.acquire());
  }

  async beginTransaction(
    _connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    // As kysely's PostgresDriver: `begin`, or `start transaction` with the settings given.
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    const access = settings.accessMode ? ` ${settings.accessMode}` : '';
    await this.pg.exec(isolation || access ? `start transaction${isolation}${access}` : 'begin');
  }

  async commitTransaction(): Promise<void> {
    await this.pg.exec('commit');
  }

  async rollbackTransaction(): Promise<void> {
    await this.pg.exec('rollback');
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PGliteConnection).release();
  }

  async destroy(): Promise<void> {
    await this.pg.close();
  }
}

/**
 * Kysely dialect for an embedded PGlite instance (PostgreSQL SQL, adapter and introspector).
 *
 * @example
 * const db = new Kysely<Database>({ dialect: new PGliteDialect(await PGlite.create()) });
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}

  createDriver(): Driver {
    return new PGliteDriver(this.pg);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createAdapter() {
    return new PostgresAdapter();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

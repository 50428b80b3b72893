/**
 * The SQL of the PostgreSQL event store. The global position packs (transaction id, index in the
 * append) into one bigint: `(xid + offset) << 20 | i`. Readers order by it and read only below the
 * horizon `(pg_snapshot_xmin(pg_current_snapshot()) + offset) << 20`: every transaction with a
 * smaller id has ended, and every later one gets a larger id, so the rows below the horizon never
 * change again and a checkpoint `position > n` never skips an event that commits late. No lock
 * orders the appends. The offset (`comanda_log`) is 0 until the log moves to a cluster whose
 * transaction ids are behind its positions (a pg_dump restored elsewhere): see OFFSET_CHECK.
 */

/** Bits of the position that number the events of one append (one transaction). */
export const ORDINAL_BITS = 20;
export const MAX_EVENTS_PER_APPEND = 2 ** ORDINAL_BITS;
export const CHANNEL = 'comanda_events';

/** Advisory lock key (an arbitrary constant): two processes starting at once create the schema one at a time. */
export const SCHEMA_LOCK = 7_236_611_002;

/** The current transaction id (assigned on first use) as a bigint: xid8 has no cast to bigint. */
const XID = 'pg_current_xact_id()::text::bigint';
const OFFSET = '(SELECT xid_offset FROM comanda_log)';

export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS comanda_events (
    position    bigint  PRIMARY KEY,
    id          text    NOT NULL UNIQUE,
    stream      text    NOT NULL,
    revision    integer NOT NULL,
    type        text    NOT NULL,
    data        json    NOT NULL,
    metadata    json    NOT NULL,
    recorded_at bigint  NOT NULL,
    CONSTRAINT comanda_events_stream_revision UNIQUE (stream, revision)
  );
  CREATE TABLE IF NOT EXISTS comanda_snapshots (
    stream   text    PRIMARY KEY,
    revision integer NOT NULL,
    schema   text    NOT NULL,
    body     text    NOT NULL
  );
  CREATE TABLE IF NOT EXISTS comanda_log (
    one        boolean PRIMARY KEY DEFAULT true CHECK (one),
    xid_offset bigint  NOT NULL
  );
  INSERT INTO comanda_log (xid_offset) VALUES (0) ON CONFLICT DO NOTHING`;

/**
 * Run at start, under the schema lock, before this process appends: raises the offset until the
 * next transaction's positions lie above every position in the log. A no-op on a live log (its
 * positions came from smaller transaction ids). It moves when the ids are behind the positions: a
 * log restored from pg_dump into another cluster, whose counter started again, would otherwise
 * put new events before old ones, under every checkpoint. A log written before positions packed
 * transaction ids (1…n under a global lock, each append using an id) needs no offset.
 */
export const OFFSET_CHECK = `
  UPDATE comanda_log SET xid_offset = greatest(xid_offset, (SELECT coalesce(max(position), 0) >> ${ORDINAL_BITS} FROM comanda_events) + 1 - ${XID})
  RETURNING xid_offset::text AS xid_offset`;

/**
 * One statement in its own (implicit) transaction, one round trip: checks the expected revision
 * against the stream's last event and inserts, or inserts nothing when the stream has moved on. Two
 * appends racing for the same revision meet on the (stream, revision) unique index: the second
 * waits for the first and fails with a unique violation (a conflict), and appends to other streams
 * never wait at all. No NOTIFY here: see NOTIFY below.
 */
export const APPEND = `
  WITH cur AS (SELECT coalesce(max(revision), -1) AS r FROM comanda_events WHERE stream = $1),
       ins AS (
         INSERT INTO comanda_events (position, id, stream, revision, type, data, metadata, recorded_at)
         SELECT ((${XID} + ${OFFSET}) << ${ORDINAL_BITS}) + e.ord - 1, e.id, $1, cur.r + e.ord, e.type, e.data, e.metadata, $3
           FROM cur, unnest($4::text[], $5::text[], $6::json[], $7::json[]) WITH ORDINALITY AS e(id, type, data, metadata, ord)
          WHERE $2::integer IS NULL OR cur.r = $2::integer
         RETURNING position, revision)
  SELECT max(position)::text AS position, max(revision) AS revision FROM ins`;

/**
 * Sent after appends commit, on its own: a NOTIFY inside the append's transaction takes the
 * notification queue's lock at commit, one committing transaction at a time in the whole cluster,
 * which serialised the appends again.
 */
export const NOTIFY = `SELECT pg_notify('${CHANNEL}', $1)`;

export const CURRENT_REVISION = 'SELECT coalesce(max(revision), -1) AS r FROM comanda_events WHERE stream = $1';

export const COLUMNS = 'position::text AS position, id, stream, revision, type, data, metadata, recorded_at::text AS recorded_at';

export const READ_STREAM = `SELECT ${COLUMNS} FROM comanda_events WHERE stream = $1 AND revision >= $2 ORDER BY revision`;

/**
 * Several streams in one statement, each from its own revision: one index range per stream. OFFSET 0
 * keeps the subquery a subquery: flattened into a join, the planner, expecting long streams, hashed
 * the whole log (0.3 ms a read at 20,000 events, where a range read takes 0.01 ms).
 */
export const READ_STREAMS = `
  SELECT ${COLUMNS} FROM unnest($1::text[], $2::integer[]) AS q(s, r)
   CROSS JOIN LATERAL (SELECT * FROM comanda_events WHERE stream = q.s AND revision >= q.r OFFSET 0) e
   ORDER BY e.stream, e.revision`;

/**
 * A page of the log after a checkpoint, below the horizon (computed once: an InitPlan, so the
 * primary key's range scan stops at it). `held` tells whether committed events wait above the
 * horizon for an older transaction to end: the reader then looks again soon instead of waiting for
 * the next notification, which that older transaction (a read model's write) may never send.
 */
// \`held\` by the log's head (max: one step down the primary key), never EXISTS over \`position >= p\`:
// the planner, not knowing p, read that as a third of the table and scanned it whole on every read
// (5 ms at 50,000 events, every follower, every append: writes slowed as the history grew).
export const READ_AFTER = `
  WITH h AS MATERIALIZED (SELECT (pg_snapshot_xmin(pg_current_snapshot())::text::bigint + ${OFFSET}) << ${ORDINAL_BITS} AS p),
       page AS (SELECT * FROM comanda_events WHERE position > $1 AND position < (SELECT p FROM h) ORDER BY position LIMIT $2)
  SELECT page.position::text AS position, id, stream, revision, type, data, metadata, recorded_at::text AS recorded_at, held
    FROM (SELECT coalesce((SELECT max(position) FROM comanda_events), -1) >= (SELECT p FROM h) AS held) x
    LEFT JOIN page ON true
   ORDER BY page.position`;

export const HEAD = 'SELECT max(position)::text AS p FROM comanda_events';

/** Events after a checkpoint, for a follower's lag: positions are no longer a count. */
export const COUNT_AFTER = 'SELECT count(*)::text AS n FROM comanda_events WHERE position > $1';

export const READ_SNAPSHOT = 'SELECT revision, schema, body FROM comanda_snapshots WHERE stream = $1';

/**
 * A snapshot is a cache of the log. Replicas fold and snapshot the same streams: a newer snapshot
 * replaces an older one, an older never a newer (unless written by another schema, a new version).
 */
export const WRITE_SNAPSHOT = `
  INSERT INTO comanda_snapshots (stream, revision, schema, body) VALUES ($1, $2, $3, $4)
  ON CONFLICT (stream) DO UPDATE SET revision = excluded.revision, schema = excluded.schema, body = excluded.body
   WHERE comanda_snapshots.revision <= excluded.revision OR comanda_snapshots.schema <> excluded.schema`;

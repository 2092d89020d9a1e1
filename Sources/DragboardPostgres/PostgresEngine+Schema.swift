import DragboardStore
extension PostgresEngine {
    /// The schema, as SQLite's migrations leave it, in PostgreSQL's terms: every text column
    /// compares byte by byte (`COLLATE "C"`, as SQLite's BINARY), so order keys sort alike on
    /// both engines whatever the database's locale; integers are 64-bit; `scope` is
    /// `COALESCE(containerID, '')`, the key of a list's or a container's rows.
    static let migrations: [(name: String, statements: [String])] = [
        ("v1", [
            """
            CREATE TABLE board (
                id TEXT COLLATE "C" PRIMARY KEY,
                version BIGINT NOT NULL,
                title TEXT NOT NULL DEFAULT '',
                activity DOUBLE PRECISION NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX board_activity ON board (activity, id)",
            """
            CREATE TABLE list (
                id TEXT COLLATE "C" PRIMARY KEY,
                title TEXT NOT NULL,
                kind TEXT COLLATE "C" NOT NULL,
                position BIGINT NOT NULL,
                boardID TEXT COLLATE "C" NOT NULL REFERENCES board (id) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX list_board ON list (boardID, position, id)",
            """
            CREATE TABLE item (
                id TEXT COLLATE "C" PRIMARY KEY,
                listID TEXT COLLATE "C" NOT NULL REFERENCES list (id) ON DELETE CASCADE,
                containerID TEXT COLLATE "C" REFERENCES item (id) ON DELETE CASCADE,
                scope TEXT COLLATE "C" GENERATED ALWAYS AS (COALESCE(containerID, '')) STORED,
                pos TEXT COLLATE "C" NOT NULL,
                kind TEXT COLLATE "C" NOT NULL,
                title TEXT NOT NULL,
                payload TEXT NOT NULL DEFAULT '{}' CHECK (payload::jsonb IS NOT NULL),
                changedVersion BIGINT NOT NULL,
                CONSTRAINT item_unique_key UNIQUE (listID, scope, pos) DEFERRABLE INITIALLY DEFERRED
            )
            """,
            "CREATE INDEX item_order ON item (listID, scope, pos, id)",
            "CREATE INDEX item_kind ON item (listID, scope, kind, pos, id)",
            "CREATE INDEX item_top ON item (listID, containerID, pos, id)",
            "CREATE INDEX item_container ON item (containerID)",
            "CREATE INDEX item_changed ON item (changedVersion)",
            "CREATE INDEX item_image ON item ((payload::jsonb ->> 'image')) WHERE (payload::jsonb ->> 'image') IS NOT NULL",
            """
            CREATE TABLE operation (
                id TEXT COLLATE "C" PRIMARY KEY,
                fingerprint TEXT NOT NULL,
                response TEXT NOT NULL,
                version BIGINT NOT NULL,
                createdAt TEXT COLLATE "C" NOT NULL
            )
            """,
            "CREATE INDEX operation_createdAt ON operation (createdAt)",
            """
            CREATE TABLE zoneImage (
                id TEXT COLLATE "C" PRIMARY KEY,
                zoneID TEXT COLLATE "C" NOT NULL,
                name TEXT NOT NULL,
                mimeType TEXT NOT NULL,
                size BIGINT NOT NULL,
                createdVersion BIGINT NOT NULL
            )
            """,
            "CREATE INDEX zoneImage_zone ON zoneImage (zoneID, createdVersion, id)",
            "CREATE TABLE zoneLabel (zoneID TEXT COLLATE \"C\" PRIMARY KEY, text TEXT NOT NULL)",
            """
            CREATE TABLE undoEntry (
                seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                owner TEXT COLLATE "C" NOT NULL,
                board TEXT COLLATE "C" NOT NULL,
                actionName TEXT NOT NULL,
                changes TEXT NOT NULL,
                undone BIGINT NOT NULL DEFAULT 0,
                createdAt TEXT COLLATE "C" NOT NULL
            )
            """,
            "CREATE INDEX undoEntry_owner ON undoEntry (owner, board, undone, seq)",
            "CREATE INDEX undoEntry_createdAt ON undoEntry (createdAt)",
            // Row counts kept in the same transaction as every change, cascades included (see
            // SQLite's `v6-row-counts`).
            """
            CREATE TABLE rowCount (
                listID TEXT COLLATE "C" NOT NULL,
                containerID TEXT COLLATE "C" NOT NULL,
                count BIGINT NOT NULL,
                PRIMARY KEY (listID, containerID)
            )
            """,
            """
            CREATE FUNCTION item_count() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP <> 'INSERT' THEN
                    UPDATE rowCount SET count = count - 1 WHERE listID = OLD.listID AND containerID = COALESCE(OLD.containerID, '');
                END IF;
                IF TG_OP <> 'DELETE' THEN
                    INSERT INTO rowCount (listID, containerID, count) VALUES (NEW.listID, COALESCE(NEW.containerID, ''), 1)
                        ON CONFLICT (listID, containerID) DO UPDATE SET count = rowCount.count + 1;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            "CREATE TRIGGER item_count_change AFTER INSERT OR DELETE ON item FOR EACH ROW EXECUTE FUNCTION item_count()",
            """
            CREATE TRIGGER item_count_move AFTER UPDATE OF listID, containerID ON item FOR EACH ROW
            WHEN (OLD.listID IS DISTINCT FROM NEW.listID OR OLD.containerID IS DISTINCT FROM NEW.containerID)
            EXECUTE FUNCTION item_count()
            """,
            """
            CREATE FUNCTION list_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM rowCount WHERE listID = OLD.id;
                RETURN NULL;
            END
            $$
            """,
            "CREATE TRIGGER list_count_delete AFTER DELETE ON list FOR EACH ROW EXECUTE FUNCTION list_count_delete()",
            "INSERT INTO board (id, title, version) VALUES ('\(BoardStore.defaultBoardID)', '\(BoardStore.defaultBoardTitle)', 0)",
        ]),
        ("v2-undo-order", [
            "CREATE INDEX undoEntry_owner_undone ON undoEntry (owner, undone, seq)",
        ]),
        ("v3-accounts", [
            """
            CREATE TABLE account (
                id TEXT COLLATE "C" PRIMARY KEY,
                name TEXT NOT NULL,
                nameKey TEXT COLLATE "C" NOT NULL UNIQUE,
                passwordHash TEXT NOT NULL,
                isAdmin BIGINT NOT NULL DEFAULT 0,
                createdAt DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE signIn (
                digest TEXT COLLATE "C" PRIMARY KEY,
                accountID TEXT COLLATE "C" NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                csrf TEXT NOT NULL,
                createdAt DOUBLE PRECISION NOT NULL,
                lastSeen DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX signIn_account ON signIn (accountID)",
            """
            CREATE TABLE member (
                boardID TEXT COLLATE "C" NOT NULL REFERENCES board (id) ON DELETE CASCADE,
                accountID TEXT COLLATE "C" NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                role TEXT COLLATE "C" NOT NULL,
                PRIMARY KEY (boardID, accountID)
            )
            """,
            "CREATE INDEX member_account ON member (accountID, boardID)",
            """
            CREATE TABLE activity (
                seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                boardID TEXT COLLATE "C" NOT NULL REFERENCES board (id) ON DELETE CASCADE,
                version BIGINT NOT NULL,
                author TEXT NOT NULL,
                words TEXT NOT NULL,
                createdAt DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX activity_board ON activity (boardID, seq)",
        ]),
        ("v4-card-details", [
            "ALTER TABLE board ADD COLUMN color TEXT NOT NULL DEFAULT 'blue'",
            "ALTER TABLE board ADD COLUMN labels TEXT NOT NULL DEFAULT '[]'",
        ]),
        ("v5-board-incarnation", [
            "ALTER TABLE board ADD COLUMN incarnation TEXT COLLATE \"C\" NOT NULL DEFAULT ''",
        ]),
        // Every listening instance hears of each change to who may do what, by whomever (another
        // instance, `dragboard users`, psql), and forgets what it knew of it (AccessWatch). A sign-in's
        // last use (an UPDATE) and a board's versions change no one's access: they are not told.
        ("v6-access-notices", [
            """
            CREATE FUNCTION dragboard_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_notify('\(PostgresEngine.accessChannel)', ''); RETURN NULL; END $$
            """,
            "CREATE TRIGGER account_changed AFTER INSERT OR UPDATE OR DELETE ON account FOR EACH ROW EXECUTE FUNCTION dragboard_access_changed()",
            "CREATE TRIGGER signin_ended AFTER DELETE ON signIn FOR EACH ROW EXECUTE FUNCTION dragboard_access_changed()",
            "CREATE TRIGGER member_changed AFTER INSERT OR UPDATE OR DELETE ON member FOR EACH ROW EXECUTE FUNCTION dragboard_access_changed()",
            "CREATE TRIGGER board_changed AFTER INSERT OR DELETE OR UPDATE OF title ON board FOR EACH ROW EXECUTE FUNCTION dragboard_access_changed()",
        ]),
        // What a board's last change was, for the other instances (`VersionStep`).
        ("v7-board-change", [
            "ALTER TABLE board ADD COLUMN changed TEXT",
        ]),
        // Indexes every change wrote (SQLite's `v12-fewer-indexes`): with `board_activity` no update of
        // a board's row could be heap-only (HOT), and each added an entry to both of its indexes, a row
        // rewritten hundreds of times a second (boards are listed newest activity first by a sort
        // instead); `undoEntry_owner` was walked by no query (they take `undoEntry_owner_undone`).
        ("v8-fewer-indexes", [
            "DROP INDEX IF EXISTS board_activity",
            "DROP INDEX IF EXISTS undoEntry_owner",
        ]),
    ]

    /// Applies the migrations this database lacks, in one transaction that holds an advisory
    /// lock: instances starting together migrate one at a time, and the second finds it done.
    func migrate() throws {
        try write { db in
            try db.execute(sql: "SELECT pg_advisory_xact_lock(7244018)")
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS dragboardMigration (name TEXT PRIMARY KEY)")
            let applied = Set(try db.fetchAll(String.self, sql: "SELECT name FROM dragboardMigration"))
            for migration in Self.migrations where !applied.contains(migration.name) {
                for statement in migration.statements { try db.execute(sql: statement) }
                try db.execute(sql: "INSERT INTO dragboardMigration (name) VALUES (?)", arguments: [migration.name])
            }
        }
    }
}

import GRDB

extension SQLiteEngine {
    /// Schema migrations, applied in order at open.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE board (
                    id TEXT PRIMARY KEY NOT NULL,
                    version INTEGER NOT NULL
                );
                INSERT INTO board (id, version) VALUES ('main', 0);
                CREATE TABLE list (
                    id TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    position INTEGER NOT NULL
                );
                CREATE TABLE item (
                    id TEXT PRIMARY KEY NOT NULL,
                    listID TEXT NOT NULL REFERENCES list(id) ON DELETE CASCADE,
                    containerID TEXT REFERENCES item(id) ON DELETE CASCADE,
                    pos TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    title TEXT NOT NULL,
                    payload TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
                    changedVersion INTEGER NOT NULL
                );
                CREATE INDEX item_order ON item(listID, containerID, pos, id);
                CREATE INDEX item_container ON item(containerID);
                CREATE INDEX item_changed ON item(changedVersion);
                CREATE TABLE operation (
                    id TEXT PRIMARY KEY NOT NULL,
                    fingerprint TEXT NOT NULL,
                    response TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    createdAt DATETIME NOT NULL
                );
                CREATE INDEX operation_createdAt ON operation(createdAt);
                """)
        }
        migrator.registerMigration("v2-zones") { db in
            try db.execute(sql: """
                CREATE TABLE zoneImage (
                    id TEXT PRIMARY KEY NOT NULL,
                    zoneID TEXT NOT NULL,
                    name TEXT NOT NULL,
                    mimeType TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    createdVersion INTEGER NOT NULL
                );
                CREATE INDEX zoneImage_zone ON zoneImage(zoneID, createdVersion, id);
                CREATE TABLE zoneLabel (
                    zoneID TEXT PRIMARY KEY NOT NULL,
                    text TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v3-boards") { db in
            // The single board `main` becomes the default board; every list was on it. Migrations
            // run with foreign keys off, so a column with a reference may get a default.
            try db.execute(sql: """
                ALTER TABLE board ADD COLUMN title TEXT NOT NULL DEFAULT '';
                ALTER TABLE board ADD COLUMN activity REAL NOT NULL DEFAULT 0;
                UPDATE board SET id = '\(BoardStore.defaultBoardID)' WHERE id = 'main';
                ALTER TABLE list ADD COLUMN boardID TEXT NOT NULL DEFAULT '\(BoardStore.defaultBoardID)' REFERENCES board(id) ON DELETE CASCADE;
                CREATE INDEX list_board ON list(boardID, position, id);
                CREATE INDEX board_activity ON board(activity, id);
                """)
            try db.execute(sql: "UPDATE board SET title = ? WHERE id = ?", arguments: [BoardStore.defaultBoardTitle, BoardStore.defaultBoardID])
        }
        migrator.registerMigration("v4-card-images") { db in
            // Which rows show a stored image (a payload's `image`): so an image is forgotten
            // when the last row showing it goes, without reading every row.
            try db.execute(sql: "CREATE INDEX item_image ON item(json_extract(payload, '$.image')) WHERE json_extract(payload, '$.image') IS NOT NULL")
        }
        migrator.registerMigration("v5-undo-history") { db in
            // Each browser's undo history: what every change it made did, row by row (see `UndoChange`).
            try db.execute(sql: """
                CREATE TABLE undoEntry (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    owner TEXT NOT NULL,
                    board TEXT NOT NULL,
                    actionName TEXT NOT NULL,
                    changes TEXT NOT NULL,
                    undone INTEGER NOT NULL DEFAULT 0,
                    createdAt DATETIME NOT NULL
                );
                CREATE INDEX undoEntry_owner ON undoEntry(owner, board, undone, seq);
                CREATE INDEX undoEntry_createdAt ON undoEntry(createdAt);
                """)
        }
        migrator.registerMigration("v6-row-counts") { db in
            // How many rows each list and container holds, kept by triggers in the same
            // transaction as every change (cascades included): drag start, every target change and
            // every drop read counts without `COUNT(*)` over lists that grow with the board.
            // `containerID` is '' for a list's top level (a primary key column cannot be NULL).
            try db.execute(sql: """
                CREATE TABLE rowCount (
                    listID TEXT NOT NULL,
                    containerID TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (listID, containerID)
                ) WITHOUT ROWID;
                INSERT INTO rowCount (listID, containerID, count)
                    SELECT listID, COALESCE(containerID, ''), COUNT(*) FROM item GROUP BY listID, containerID;
                CREATE TRIGGER item_count_insert AFTER INSERT ON item BEGIN
                    INSERT INTO rowCount (listID, containerID, count) VALUES (NEW.listID, COALESCE(NEW.containerID, ''), 1)
                        ON CONFLICT (listID, containerID) DO UPDATE SET count = count + 1;
                END;
                CREATE TRIGGER item_count_delete AFTER DELETE ON item BEGIN
                    UPDATE rowCount SET count = count - 1 WHERE listID = OLD.listID AND containerID = COALESCE(OLD.containerID, '');
                END;
                CREATE TRIGGER item_count_move AFTER UPDATE OF listID, containerID ON item
                WHEN OLD.listID IS NOT NEW.listID OR OLD.containerID IS NOT NEW.containerID BEGIN
                    UPDATE rowCount SET count = count - 1 WHERE listID = OLD.listID AND containerID = COALESCE(OLD.containerID, '');
                    INSERT INTO rowCount (listID, containerID, count) VALUES (NEW.listID, COALESCE(NEW.containerID, ''), 1)
                        ON CONFLICT (listID, containerID) DO UPDATE SET count = count + 1;
                END;
                CREATE TRIGGER list_count_delete AFTER DELETE ON list BEGIN
                    DELETE FROM rowCount WHERE listID = OLD.id;
                END;
                CREATE INDEX item_kind ON item(listID, containerID, kind, pos, id);
                """)
        }
        migrator.registerMigration("v7-undo-order") { db in
            // Every change trims its owner's history to the newest entries, and an undo on any board
            // takes the owner's newest one: both walk this index instead of sorting the history.
            try db.execute(sql: "CREATE INDEX undoEntry_owner_undone ON undoEntry(owner, undone, seq)")
        }
        migrator.registerMigration("v8-accounts") { db in
            // People, their sign-ins (a digest of each token, never the token) and their roles on boards.
            try db.execute(sql: """
                CREATE TABLE account (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    nameKey TEXT NOT NULL UNIQUE,
                    passwordHash TEXT NOT NULL,
                    isAdmin INTEGER NOT NULL DEFAULT 0,
                    createdAt REAL NOT NULL
                );
                CREATE TABLE signIn (
                    digest TEXT PRIMARY KEY NOT NULL,
                    accountID TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    csrf TEXT NOT NULL,
                    createdAt REAL NOT NULL,
                    lastSeen REAL NOT NULL
                );
                CREATE INDEX signIn_account ON signIn(accountID);
                CREATE TABLE member (
                    boardID TEXT NOT NULL REFERENCES board(id) ON DELETE CASCADE,
                    accountID TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    role TEXT NOT NULL,
                    PRIMARY KEY (boardID, accountID)
                );
                CREATE INDEX member_account ON member(accountID, boardID);
                CREATE TABLE activity (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    boardID TEXT NOT NULL REFERENCES board(id) ON DELETE CASCADE,
                    version INTEGER NOT NULL,
                    author TEXT NOT NULL,
                    words TEXT NOT NULL,
                    createdAt REAL NOT NULL
                );
                CREATE INDEX activity_board ON activity(boardID, seq);
                """)
        }
        migrator.registerMigration("v9-card-details") { db in
            // A board's colour on the index and its labels (a JSON array: a handful per board, read with
            // the board's row); a card's details live in its row's payload.
            try db.execute(sql: """
                ALTER TABLE board ADD COLUMN color TEXT NOT NULL DEFAULT 'blue';
                ALTER TABLE board ADD COLUMN labels TEXT NOT NULL DEFAULT '[]';
                """)
        }
        migrator.registerMigration("v10-board-incarnation") { db in
            // A board made again under a deleted board's id starts its versions again: its incarnation
            // (new at each insert) tells the two apart, for what transactions remember (`BoardMemos`).
            try db.execute(sql: "ALTER TABLE board ADD COLUMN incarnation TEXT NOT NULL DEFAULT ''")
        }
        migrator.registerMigration("v11-board-change") { db in
            // What the last change of a board was (`VersionStep`): written where processes share the
            // database (PostgreSQL); here it stays NULL, as both engines keep the same columns.
            try db.execute(sql: "ALTER TABLE board ADD COLUMN changed TEXT")
        }
        migrator.registerMigration("v12-fewer-indexes") { db in
            // Indexes every change wrote, each a page more in the log per commit:
            // - every change sets its board's activity, and with it this index's entry: the boards
            //   are listed newest activity first by a sort instead;
            // - every change adds an undo entry, and this index (owner, board, undone, seq) was walked
            //   by no query: each finds the owner's entries through `undoEntry_owner_undone`, newest
            //   first, one on a given board among at most `undoLimit`.
            // IF EXISTS: a development build dropped the first alone under another name.
            try db.execute(sql: "DROP INDEX IF EXISTS board_activity")
            try db.execute(sql: "DROP INDEX IF EXISTS undoEntry_owner")
        }
        return migrator
    }
}

import Dragboard

extension BoardTransaction {
    /// Records an image in a zone (its file must already be in the image folder).
    public func addImage(_ image: ZoneImageRecord) throws {
        try db.execute(sql: """
            INSERT INTO zoneImage (id, zoneID, name, mimeType, size, createdVersion) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [image.id, image.zoneID, image.name, image.mimeType, image.size, newVersion])
        journal.append(.image(before: nil, after: UndoImageState(record: image, createdVersion: newVersion)))
    }

    /// Replaces a zone's text (a label's, say): ZoneWriter/setText(_:).
    public func setLabel(_ zoneID: String, text: String) throws {
        let before = try label(zoneID)
        guard before != text else { return }
        journal.append(.label(zoneID: zoneID, before: before, after: text))
        try db.execute(sql: """
            INSERT INTO zoneLabel (zoneID, text) VALUES (?, ?) ON CONFLICT(zoneID) DO UPDATE SET text = excluded.text
            """, arguments: [zoneID, text])
    }

    /// Forgets an image (its file is the caller's to delete once this commits).
    public func removeImage(_ id: String) throws {
        if journal.isRecording, let state = try imageState(id) { journal.append(.image(before: state, after: nil)) }
        try db.execute(sql: "DELETE FROM zoneImage WHERE id = ?", arguments: [id])
    }

    /// The images rows of a list show (their payload's `image`), before the list is deleted.
    public func imagesShown(inList listID: String) throws -> [String] {
        try db.fetchAll(String.self, sql: """
            SELECT DISTINCT json_extract(payload, '$.image') FROM item
            WHERE listID = ? AND json_extract(payload, '$.image') IS NOT NULL
            """, arguments: [listID])
    }

    /// Forgets those of `ids`, recorded under `zoneID`, that no row shows any more; returns them,
    /// for the caller to delete their files once the transaction commits.
    public func forgetUnshownImages(_ ids: [String], zoneID: String) throws -> [String] {
        var forgotten: [String] = []
        for id in Set(ids).sorted() {
            let shown = try db.fetchOne(Int.self, sql: "SELECT 1 FROM item WHERE json_extract(payload, '$.image') = ? LIMIT 1", arguments: [id]) != nil
            guard !shown else { continue }
            if journal.isRecording, let state = try imageState(id), state.record.zoneID == zoneID { journal.append(.image(before: state, after: nil)) }
            try db.execute(sql: "DELETE FROM zoneImage WHERE id = ? AND zoneID = ?", arguments: [id, zoneID])
            if db.changesCount > 0 { forgotten.append(id) }
        }
        return forgotten
    }

    /// A zone's images, oldest first.
    public func images(in zoneID: String) throws -> [ZoneImageRecord] {
        try db.rows(sql: """
            SELECT id, zoneID, name, mimeType, size FROM zoneImage WHERE zoneID = ? ORDER BY createdVersion, id
            """, arguments: [zoneID]).map(ZoneImageRecord.init(row:))
    }

    /// A zone's text, if any was stored.
    public func label(_ zoneID: String) throws -> String? {
        try db.fetchOne(String.self, sql: "SELECT text FROM zoneLabel WHERE zoneID = ?", arguments: [zoneID])
    }

    /// How many images a zone keeps and their bytes.
    public func imageUsage(in zoneID: String) throws -> (count: Int, bytes: Int) {
        let row = try db.row(sql: "SELECT COUNT(*), CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM zoneImage WHERE zoneID = ?", arguments: [zoneID])
        guard let row else { return (0, 0) }
        return (row[0], row[1])
    }

    /// How many images all zones keep together and their bytes: what the image quota counts.
    public func imageUsage() throws -> (count: Int, bytes: Int) {
        let row = try db.row(sql: "SELECT COUNT(*), CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM zoneImage")
        guard let row else { return (0, 0) }
        return (row[0], row[1])
    }

    /// One image's record.
    public func image(_ id: String) throws -> ZoneImageRecord? {
        try db.row(sql: "SELECT id, zoneID, name, mimeType, size FROM zoneImage WHERE id = ?", arguments: [id]).map(ZoneImageRecord.init(row:))
    }
}

extension ZoneImageRecord {
    /// From a row of `id, zoneID, name, mimeType, size`.
    init(row: SQLRow) {
        self.init(id: row[0], zoneID: row[1], name: row[2], mimeType: row[3], size: row[4])
    }
}

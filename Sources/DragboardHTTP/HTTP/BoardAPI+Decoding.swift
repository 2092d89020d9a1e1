import DragAndDrop
import Dragboard

// Every request body is checked against ``WireGrammar`` as it is decoded: a bad field is a 400
// naming the field and the rule, before any handler runs.

extension BoardAPI.Target {
    enum CodingKeys: String, CodingKey { case list, zone }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        list = try container.decodeIDIfPresent(forKey: .list)
        zone = try container.decodeIDIfPresent(forKey: .zone)
    }
}

extension BoardAPI.Location {
    enum CodingKeys: String, CodingKey { case row, fraction, item }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        row = try container.decodeIfPresent(Int.self, forKey: .row)
        fraction = try container.decodeIfPresent(Double.self, forKey: .fraction)
        item = try container.decodeIDIfPresent(forKey: .item)
    }
}

extension BoardAPI.BeginRequest {
    enum CodingKeys: String, CodingKey { case token, list, items, board }

    /// The most rows one drag may carry.
    static let maximumItems = 500

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decodeID(forKey: .token)
        list = try container.decodeID(forKey: .list)
        items = try container.decodeIDs(forKey: .items, limit: Self.maximumItems)
        board = try container.decodeIDIfPresent(forKey: .board)
    }
}

extension BoardAPI.ExternalRequest {
    enum CodingKeys: String, CodingKey { case token, types, files, board }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decodeID(forKey: .token)
        types = try container.decodeMIMETypes(forKey: .types, limit: 32)
        files = try container.decodeMIMETypes(forKey: .files, limit: 16)
        board = try container.decodeIDIfPresent(forKey: .board)
    }
}

extension BoardAPI.JoinRequest {
    enum CodingKeys: String, CodingKey { case board }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        board = try container.decodeIDIfPresent(forKey: .board)
    }
}

extension BoardAPI.DropRequest {
    enum CodingKeys: String, CodingKey { case op, version, target, location, shown, copy, data, files }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        op = try container.decode(String.self, forKey: .op)
        guard (8...64).contains(op.utf8.count), WireGrammar.idProblem(op) == nil else {
            throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "op is 8 to 64 letters, digits, '-' or '_'")
        }
        version = try container.decode(Int.self, forKey: .version)
        target = try container.decode(BoardAPI.Target.self, forKey: .target)
        location = try container.decodeIfPresent(BoardAPI.Location.self, forKey: .location)
        shown = try container.decodeIfPresent(DropOperation.self, forKey: .shown)
        copy = try container.decodeIfPresent(Bool.self, forKey: .copy)
        data = try container.contains(.data) ? Self.decodeData(container) : nil
        if container.contains(.files), try !container.decodeNil(forKey: .files) {
            let files = try Self.decodeFiles(container)
            let ids = files.compactMap { $0 }
            guard Set(ids).count == ids.count else {
                throw DecodingError.dataCorruptedError(forKey: .files, in: container, debugDescription: "an uploaded file is listed twice")
            }
            self.files = files
        } else {
            files = nil
        }
    }

    /// Upload ids in the order of the session's file items; `null` for a file the browser did not
    /// upload (refused before it was sent: not an image, too large), so the others keep their place.
    private static func decodeFiles(_ container: KeyedDecodingContainer<CodingKeys>) throws -> [String?] {
        var array = try container.nestedUnkeyedContainer(forKey: .files)
        var files: [String?] = []
        while !array.isAtEnd {
            guard files.count < 16 else { throw DecodingError.dataCorruptedError(forKey: .files, in: container, debugDescription: "at most 16 files") }
            if try array.decodeNil() { files.append(nil); continue }
            let id = try array.decode(String.self)
            if let problem = WireGrammar.idProblem(id) { throw container.invalid(.files, at: files.count, problem) }
            files.append(id)
        }
        return files
    }

    /// The DataTransfer's strings: at most 32 `[type, text]` pairs, each text checked.
    private static func decodeData(_ container: KeyedDecodingContainer<CodingKeys>) throws -> [[String]]? {
        guard try !container.decodeNil(forKey: .data) else { return nil }
        var pairs = try container.nestedUnkeyedContainer(forKey: .data)
        var data: [[String]] = []
        while !pairs.isAtEnd {
            guard data.count < 32 else { throw DecodingError.dataCorruptedError(forKey: .data, in: container, debugDescription: "at most 32 types") }
            let pair = try pairs.decode([String].self)
            guard pair.count == 2 else { throw container.invalid(.data, at: data.count, "data holds [type, string] pairs") }
            if let problem = WireGrammar.mimeTypeProblem(pair[0]) ?? WireGrammar.textProblem(pair[1]) {
                throw container.invalid(.data, at: data.count, problem)
            }
            data.append(pair)
        }
        return data
    }
}

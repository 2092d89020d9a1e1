import Foundation
import MicroHTTP
import Testing
@testable import DragboardHTTP

/// `GET /healthz` and `GET /metrics`: health without secrets, metrics in Prometheus' text format
/// (checked line by line against the format's rules), for this machine or a bearer of the token.
@Suite struct OperationsRouteTests {
    private func routes(_ board: TestBoard, token: String? = nil) -> Router {
        var router = Router()
        board.service.addOperationsRoutes(to: &router, metricsToken: token)
        return router
    }

    private func get(_ router: Router, _ path: String, from address: String = "127.0.0.1", headers: HTTPHeaders = [:]) -> Response {
        var request = Request(method: .get, path: path, headers: headers)
        request.remoteAddress = address
        return router.respond(to: request)
    }

    @Test func healthSaysOKAndNothingElse() async throws {
        let board = try await TestBoard()
        let response = get(routes(board), "/healthz", from: "203.0.113.5")
        #expect(response.status == .ok)
        #expect(TestBoard.text(response) == #"{"status":"ok"}"#)
    }

    @Test func metricsAreForThisMachineOrTheBearerOfTheToken() async throws {
        let board = try await TestBoard()
        #expect(get(routes(board), "/metrics").status == .ok)
        #expect(get(routes(board), "/metrics", from: "203.0.113.5").status == .forbidden)
        let guarded = routes(board, token: "s3cret-token")
        #expect(get(guarded, "/metrics").status == .unauthorized)
        #expect(get(guarded, "/metrics", from: "203.0.113.5", headers: ["Authorization": "Bearer wrong"]).status == .unauthorized)
        #expect(get(guarded, "/metrics", from: "203.0.113.5", headers: ["Authorization": "Bearer s3cret-token"]).status == .ok)
    }

    @Test func metricsFollowTheTextFormatAndCountWhatHappened() async throws {
        let board = try await TestBoard()
        let card = try board.ids("cat-1")[0]
        let token = try board.begin("cat-1", [card])
        #expect(try board.drop(token, list: "cat-2", row: 0).status == 200)
        _ = try board.begin("cat-1", [try board.ids("cat-1")[0]])   // left in progress
        board.service.metrics.record(AnsweredRequest(route: "GET /boards/:board", status: 200, duration: .milliseconds(3)))
        board.service.metrics.record(AnsweredRequest(route: "GET /boards/:board", status: 200, duration: .milliseconds(2)))
        board.service.metrics.record(AnsweredRequest(route: "POST /api/sessions/:token/drop", status: 409, duration: .milliseconds(2)))

        let response = get(routes(board), "/metrics")
        #expect(response.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let families = try PrometheusText.parse(TestBoard.text(response))
        #expect(families["dragboard_http_requests_total"]?.type == "counter")
        #expect(families["dragboard_http_requests_total"]?.value(["route": "GET /boards/:board", "status": "200"]) == 2)
        #expect(families["dragboard_http_requests_total"]?.value(["route": "POST /api/sessions/:token/drop", "status": "409"]) == 1)
        #expect(families["dragboard_drop_duration_seconds"]?.type == "histogram")
        #expect(families["dragboard_drop_duration_seconds"]?.value([:], suffix: "_count") == 1)
        #expect((families["dragboard_database_wait_seconds"]?.value([:], suffix: "_count") ?? 0) >= 1)
        #expect(families["dragboard_drag_sessions"]?.value([:]) == 2)   // neither was ended (a drop does not end its session)
        #expect(families["dragboard_live_streams"]?.value([:]) == 0)
    }
}

/// A strict reader of Prometheus' text exposition format (version 0.0.4): `# TYPE` once per family and
/// before its samples, a family's samples together, names and label names of the allowed characters,
/// label values with only `\\`, `\"` and `\n` escapes, values that are floats (or ±Inf, NaN), and
/// histograms whose buckets are cumulative and end with `+Inf` equal to `_count`.
enum PrometheusText {
    struct Family {
        var type: String?
        var samples: [(name: String, labels: [String: String], value: Double)] = []

        func value(_ labels: [String: String], suffix: String = "") -> Double? {
            samples.first { $0.name.hasSuffix(suffix) && $0.labels.filter { $0.key != "le" } == labels && (suffix != "" || !$0.name.hasSuffix("_bucket")) }?.value
        }
    }

    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ text: String) throws -> [String: Family] {
        var families: [String: Family] = [:]
        var finished: Set<String> = []
        var current: String?
        func family(of sample: String) -> String {
            for suffix in ["_bucket", "_sum", "_count"] where sample.hasSuffix(suffix) {
                let base = String(sample.dropLast(suffix.count))
                if families[base]?.type == "histogram" || families[base]?.type == "summary" { return base }
            }
            return sample
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
                guard parts.count >= 3, parts[0] == "#" else { continue }   // a plain comment
                guard isName(parts[2]) else { throw FormatError(description: "bad name in \(line)") }
                if parts[1] == "TYPE" {
                    guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else { throw FormatError(description: "bad TYPE: \(line)") }
                    guard families[parts[2]]?.type == nil, families[parts[2]]?.samples.isEmpty ?? true else { throw FormatError(description: "TYPE after samples or twice: \(line)") }
                    families[parts[2], default: Family()].type = parts[3]
                }
                continue
            }
            let (name, labels, value) = try sample(line)
            let owner = family(of: name)
            if current != owner {
                if let current { finished.insert(current) }
                guard !finished.contains(owner) else { throw FormatError(description: "samples of \(owner) are not together") }
                current = owner
            }
            families[owner, default: Family()].samples.append((name, labels, value))
        }
        for (name, family) in families where family.type == "histogram" {
            var byLabels: [[String: String]: [(Double, Double)]] = [:]
            for sample in family.samples where sample.name == name + "_bucket" {
                guard let le = sample.labels["le"], let bound = le == "+Inf" ? Double.infinity : Double(le) else { throw FormatError(description: "\(name) bucket without le") }
                byLabels[sample.labels.filter { $0.key != "le" }, default: []].append((bound, sample.value))
            }
            for (labels, buckets) in byLabels {
                guard buckets.map(\.0) == buckets.map(\.0).sorted(), buckets.last?.0 == .infinity,
                      zip(buckets, buckets.dropFirst()).allSatisfy({ $0.1 <= $1.1 }),
                      family.value(labels, suffix: "_count") == buckets.last?.1 else {
                    throw FormatError(description: "\(name) buckets are not cumulative up to +Inf = _count")
                }
            }
        }
        return families
    }

    private static func sample(_ line: String) throws -> (String, [String: String], Double) {
        var rest = Substring(line)
        let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
        guard isName(name) else { throw FormatError(description: "bad metric name: \(line)") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                guard !label.isEmpty, !label.first!.isNumber, rest.dropFirst(label.count).hasPrefix("=\"") else { throw FormatError(description: "bad label: \(line)") }
                rest = rest.dropFirst(label.count + 2)
                var value = ""
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\" {
                        guard let escaped = rest.first, "\\\"n".contains(escaped) else { throw FormatError(description: "bad escape: \(line)") }
                        value.append(escaped == "n" ? "\n" : escaped)
                        rest = rest.dropFirst()
                    } else {
                        guard character != "\n" else { throw FormatError(description: "raw line break in a label value") }
                        value.append(character)
                    }
                }
                guard rest.first == "\"", labels[label] == nil else { throw FormatError(description: "unterminated or repeated label: \(line)") }
                labels[label] = value
                rest = rest.dropFirst()
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ")
        guard rest.first == " ", (1...2).contains(fields.count) else { throw FormatError(description: "bad sample: \(line)") }
        let text = String(fields[0])
        guard let value = ["+Inf": Double.infinity, "-Inf": -Double.infinity, "NaN": Double.nan][text] ?? Double(text) else { throw FormatError(description: "bad value: \(line)") }
        if fields.count == 2, Int64(fields[1]) == nil { throw FormatError(description: "bad timestamp: \(line)") }
        return (name, labels, value)
    }

    private static func isName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" || first == ":" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
    }
}

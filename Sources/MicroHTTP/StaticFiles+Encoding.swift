import Foundation
import Glibc
import Synchronization

extension StaticFiles {
    /// The system's `gzip` program, run once per text file at start to keep a compressed copy beside it.
    ///
    /// No compression library is linked: Debian's `gzip` is Essential (always installed). When it is
    /// missing or fails, files are served as they are.
    ///
    /// ```swift
    /// let files = try StaticFiles(directory: "Public", gzip: .onPath())  // the default
    /// let plain = try StaticFiles(directory: "Public", gzip: nil)        // never compressed
    /// ```
    public struct Gzip: Sendable {
        /// The path of the `gzip` program.
        public let executable: String

        /// Runs the `gzip` at `executable`.
        public init(executable: String) {
            self.executable = executable
        }

        /// The first executable `gzip` in the directories of `path` (relative entries skipped); `nil` when none.
        /// - Parameter path: A `PATH` value; the server's own by default, `/usr/bin:/bin` when it has none.
        public static func onPath(_ path: String? = ProcessInfo.processInfo.environment["PATH"]) -> Gzip? {
            let directories = (path ?? "/usr/bin:/bin").split(separator: ":").filter { $0.hasPrefix("/") }
            return directories.lazy.map { String($0) + "/gzip" }.first { access($0, X_OK) == 0 }.map { Gzip(executable: $0) }
        }

        /// Smaller files are sent as they are: the 18 bytes of gzip framing and the `Content-Encoding`
        /// and `Vary` fields eat most of what a few hundred bytes could save, and the answer fits in one
        /// packet either way.
        static let minimumSize = 256

        /// Whether a file of `contentType` and `size` bytes is worth `compressed` bytes instead: text only
        /// (images, fonts and archives are compressed already), and only when at least 10% smaller, else the
        /// client decompresses and caches a second copy for next to nothing.
        static func isWorthIt(contentType: String, size: Int, compressed: Int? = nil) -> Bool {
            let isText = contentType.hasPrefix("text/") || contentType.contains("json") || contentType.contains("xml")
            guard isText, size >= minimumSize else { return false }
            return compressed.map { $0 * 10 < size * 9 } ?? true
        }

        /// Gives each in-memory entry worth it a gzip copy, compressed from the bytes that were read and tagged
        /// (never from the file again: what goes out under one ETag is what was tagged, even if the file changed).
        /// The files are compressed side by side: each costs a process start more than its compression.
        func compressText(of entries: inout [String: Entry]) {
            let candidates: [(path: String, bytes: [UInt8])] = entries.compactMap { path, entry in
                guard case .bytes(let bytes) = entry.content, Self.isWorthIt(contentType: entry.contentType, size: bytes.count) else { return nil }
                return (path, bytes)
            }
            let results = Mutex([[UInt8]?](repeating: nil, count: candidates.count))
            DispatchQueue.concurrentPerform(iterations: candidates.count) { index in
                let compressed = compress(candidates[index].bytes)
                results.withLock { $0[index] = compressed }
            }
            for (candidate, compressed) in zip(candidates, results.withLock { $0 }) {
                guard let compressed, let entry = entries[candidate.path],
                    Self.isWorthIt(contentType: entry.contentType, size: candidate.bytes.count, compressed: compressed.count)
                else { continue }
                entries[candidate.path]?.gzipped = compressed
            }
        }

        /// `bytes` compressed by `gzip -9 -n -c` (no name, no time: the same bytes on every start), or `nil`
        /// when the program cannot be started, fails, or writes something that is not gzip of `bytes`.
        func compress(_ bytes: [UInt8]) -> [UInt8]? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["-9", "-n", "-c"]
            process.environment = [:]  // a GZIP variable in the server's environment must not change the output
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            // Not waitUntilExit: it polls a run loop, 50 ms a file when this thread has none running.
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            do { try process.run() } catch { return nil }
            // gzip writes while it reads: fed from this thread, which is not reading yet, both pipes would
            // fill (64 KiB each) and neither side would move. A thread of its own feeds it.
            let writer = Thread { Self.feed(bytes, to: input.fileHandleForWriting) }
            writer.start()
            let compressed = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
            exited.wait()
            guard process.terminationReason == .exit, process.terminationStatus == 0,
                Self.isGzip(compressed, of: bytes.count)
            else { return nil }
            return compressed
        }

        /// Writes `bytes` to gzip's standard input and closes it. SIGPIPE is blocked on this thread only:
        /// a gzip that exits before reading everything makes `write` fail with EPIPE instead of killing the
        /// server (a signal left pending here goes with the thread).
        private static func feed(_ bytes: [UInt8], to handle: FileHandle) {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(handle.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { break }
                    offset += written
                }
            }
            try? handle.close()
        }

        /// Whether `data` has gzip's magic and deflate method up front and, at its end, the original size
        /// (mod 2³²): a truncated output or another program named gzip is caught before it is served.
        static func isGzip(_ data: [UInt8], of size: Int) -> Bool {
            guard data.count >= 18, data[0] == 0x1f, data[1] == 0x8b, data[2] == 8 else { return false }
            let trailer = data.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return trailer == UInt32(truncatingIfNeeded: size)
        }

        /// Whether a request whose `Accept-Encoding` fields are `fields` gets the gzip copy (RFC 9110 §12.5.3).
        ///
        /// Codings compare case-insensitively (`x-gzip` is `gzip`); a `q` of 0, or one that does not parse, refuses
        /// a coding; `*` stands for gzip when gzip is not named. gzip is chosen when acceptable and `identity` is not
        /// named with a higher `q`. No field means identity: RFC 9110 allows any coding then, but clients that
        /// send none (scripts, probes) are the ones that cannot decode. Parameters other than `q` are skipped
        /// (no coding defines any), so a quoted `,` inside one is not understood.
        static func isAccepted(by fields: [String]) -> Bool {
            var gzip: Int?, identity: Int?, wildcard: Int?  // q in thousandths, first mention wins
            for field in fields {
                for element in field.utf8.split(separator: UInt8(ascii: ",")) {
                    let parts = element.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
                    let coding = trimmed(parts[0])
                    guard !coding.isEmpty else { continue }
                    var weight = 1000
                    for parameter in parts.dropFirst() {
                        guard let equals = parameter.firstIndex(of: UInt8(ascii: "=")) else { continue }
                        let name = trimmed(parameter[..<equals])
                        if name.count == 1, name.first! | 0x20 == UInt8(ascii: "q") {
                            weight = qvalue(trimmed(parameter[parameter.index(after: equals)...])) ?? 0
                        }
                    }
                    if equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "x-gzip") {
                        gzip = gzip ?? weight
                    } else if equalsIgnoringCase(coding, "identity") {
                        identity = identity ?? weight
                    } else if coding.elementsEqual("*".utf8) {
                        wildcard = wildcard ?? weight
                    }
                }
            }
            guard let weight = gzip ?? wildcard, weight > 0 else { return false }
            return weight >= identity ?? 0
        }

        /// A qvalue (`0`, `0.5`, `1.000`…) in thousandths; `nil` when it is not one.
        private static func qvalue(_ text: Substring.UTF8View) -> Int? {
            guard let first = text.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
            var value = Int(first - UInt8(ascii: "0")) * 1000
            let rest = text.dropFirst()
            guard let dot = rest.first else { return value }
            let digits = rest.dropFirst()
            guard dot == UInt8(ascii: "."), digits.count <= 3 else { return nil }
            var scale = 100
            for digit in digits {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
                value += Int(digit - UInt8(ascii: "0")) * scale
                scale /= 10
            }
            return value <= 1000 ? value : nil
        }

        private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
            var slice = bytes
            while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { slice = slice.dropFirst() }
            while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { slice = slice.dropLast() }
            return slice
        }

        private static func equalsIgnoringCase(_ bytes: Substring.UTF8View, _ lowercase: StaticString) -> Bool {
            guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
            let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
            return zip(bytes, expected).allSatisfy { byte, lower in
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == lower
            }
        }
    }
}

import Foundation
import Testing
@testable import MicroHTTP

/// An error's JSON body is written by hand: whatever its message holds, it parses back to it.
@Suite struct HTTPErrorJSONTests {
    @Test(arguments: ["", #"quote " and \ backslash"#, "a\u{0}b\ttab\n", "\u{2028}\u{2029} </script>", "\u{FEFF}bom 🐈 e\u{301}"])
    func anErrorsJSONCarriesItsMessage(message: String) throws {
        let error = HTTPError(.badRequest, code: "bad_\(message.count)", message: message)
        // JSONDecoder: Foundation's JSONSerialization drops a U+FEFF inside a string.
        let object = try JSONDecoder().decode([String: [String: String]].self, from: Data(error.jsonBody))
        #expect(object == ["error": ["code": "bad_\(message.count)", "message": message]])
    }
}

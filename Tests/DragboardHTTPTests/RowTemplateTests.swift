import Foundation
import Testing
@testable import Dragboard
@testable import DragboardHTTP
import Showcase

/// The page's rows render through the compiled `row` template, byte for byte what swift-mustache
/// renders from the same template; a row template it cannot compile stays with swift-mustache.
@Suite struct RowTemplateTests {
    @Test func theCompiledRowRendersWhatMustacheRenders() async throws {
        let renderer = try await BoardRenderer(templatesDirectory: TestBoard.root.appendingPathComponent("Templates").path, kit: Showcase.kit)
        #expect(renderer.rowTemplate != nil)
        let records = [
            DragRecipesTests.record("toy", #"<i>Tea & "cake"</i> 'x' 🐈"#),
            // (not a person: its JSON's key order differs from one encoding to the next)
            DragRecipesTests.record("link", "A & B", payload: #"{"url":"https://example.com/?a=1&b=2"}"#),
            DragRecipesTests.record("unregistered", "plain"),
        ]
        for record in records {
            let view = renderer.rowView(record, contents: [])
            let mustache = renderer.mustacheRow(view)
            #expect(renderer.rowsHTML([view]) == mustache, "\(record.kind)")
            // A drop's answer renders its row the same way.
            #expect(renderer.row(record, contents: []) == mustache, "\(record.kind)")
        }
    }

    @Test func aRowTemplateUsingMoreThanTheRowsFieldsIsLeftToMustache() {
        #expect(RowTemplate(source: "<li>{{title}} {{{detail}}}{{#hasDrag}} data-drag=\"{{drag}}\"{{/hasDrag}}</li>\n") != nil)
        for source in ["<li>{{> other}}</li>", "<li>{{#title}}x{{/title}}</li>", "<li>{{due}}</li>", "<li>{{#hasDrag}}x</li>", "<li>{{^hasDrag}}x{{/hasDrag}}</li>", "<li>{{title</li>"] {
            #expect(RowTemplate(source: source) == nil, "\(source)")
        }
    }
}

import Foundation
import Testing
@testable import Dragboard

/// A card's details as the domain keeps and checks them, without a store.
@Suite struct CardDetailsTests {
    @Test func detailsLiveInThePayloadBesideWhatTheKindKeeps() throws {
        let details = CardDetails(description: "Notes", due: "2026-12-03", labels: ["l1"], checklist: [CheckItem(id: "c1", title: "One", done: true)])
        let payload = details.stored(in: #"{"url":"https://example.com/a/b","age":34}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        #expect(object["url"] as? String == "https://example.com/a/b")
        #expect(object["age"] as? Int == 34)
        #expect(CardDetails.of(payload: payload) == details)
        // Emptied, the details leave the payload; the kind's keys stay.
        let emptied = CardDetails().stored(in: payload)
        #expect(!emptied.contains("details") && emptied.contains("\"age\":34"))
        #expect(CardDetails.of(payload: "{}").isEmpty)
        #expect(CardDetails.of(payload: #"{"details":"not an object"}"#).isEmpty)
        #expect(details.checkedCount == 1)
    }

    @Test func aDescriptionShowsItsLinesAndHTTPAddressesButNeverMarkup() {
        let details = CardDetails(description: "Read <b>this</b> & https://example.com/a?x=1&y=2.\njavascript:alert(1) and http://a.example/\"><script>")
        let html = details.descriptionHTML
        #expect(html.contains("Read &lt;b&gt;this&lt;/b&gt; &amp; "))
        #expect(html.contains(#"<a href="https://example.com/a?x=1&amp;y=2" rel="noopener noreferrer nofollow" target="_blank">https://example.com/a?x=1&amp;y=2</a>."#))
        #expect(html.contains("<br>\n"))
        #expect(!html.contains("<script>") && !html.contains(#"href="javascript"#))
        #expect(html.contains(#"<a href="http://a.example/""#))
        #expect(CardDetails(description: "shttp://x.example and http:// alone").descriptionHTML == "shttp://x.example and http:// alone")
    }

    @Test func everyDetailIsCheckedBeforeItIsKept() throws {
        #expect(try CardDetails.checkedDescription("  a\r\nb  ") == "a\nb")
        #expect(throws: DragboardError.self) { try CardDetails.checkedDescription(String(repeating: "é", count: 10_001)) }
        #expect(try CardDetails.checkedDescription(String(repeating: "é", count: 10_000)).count == 10_000)
        #expect(try CardDetails.checkedDue("") == nil)
        #expect(try CardDetails.checkedDue("2028-02-29") == "2028-02-29")
        for bad in ["2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", "tomorrow", "2026-00-10", "２０２６-01-01"] {
            #expect(throws: DragboardError.self, "\(bad)") { try CardDetails.checkedDue(bad) }
        }
        let labels = BoardLabels([BoardLabel(id: "a", name: "A", color: .red), BoardLabel(id: "b", name: "B", color: .green)])
        #expect(try CardDetails.checkedLabels(["b", "a", "b"], of: labels) == ["a", "b"])
        #expect(throws: DragboardError.self) { try CardDetails.checkedLabels(["nope"], of: labels) }
        #expect(throws: DragboardError.self) { try CardDetails.checkedCheckTitle("  ") }
        #expect(throws: DragboardError.self) { try CardDetails.checkedCheckTitle("two\nlines") }
        #expect(throws: DragboardError.self) { try BoardLabel.checkedName(String(repeating: "x", count: 61)) }
        #expect(throws: DragboardError.self) { try PaletteColor.named("#ff0000") }
        #expect(DueDate("2026-12-03")?.words == "3 Dec 2026")
    }

    @Test func theFilterKeepsCardsByTitleDescriptionOrLabelName() throws {
        let labels = BoardLabels([BoardLabel(id: "u", name: "Urgent", color: .red)])
        func row(_ title: String, _ details: CardDetails) -> ItemRecord {
            ItemRecord(id: title, listID: "l", containerID: nil, pos: "a", kind: "card", title: title, payload: details.stored(in: "{}"), changedVersion: 1)
        }
        let rows = [row("Café plans", CardDetails()), row("Other", CardDetails(description: "about the CAFE")),
                    row("Third", CardDetails(labels: ["u"])), row("Fourth", CardDetails())]
        #expect(rows.filter { try! CardSearch("cafe").matches($0, labels: labels) }.map(\.id) == ["Café plans", "Other"])
        #expect(rows.filter { try! CardSearch("urg").matches($0, labels: labels) }.map(\.id) == ["Third"])
        #expect(rows.filter { try! CardSearch("  ").matches($0, labels: labels) }.count == 4)
        #expect(throws: DragboardError.self) { try CardSearch(String(repeating: "q", count: 201)) }
    }
}

/// Found by schemathesis: control characters and non-characters were stored in label names,
/// descriptions and checklist items (the card page then held text the HTML parser refuses).
@Suite struct DetailTextRulesTests {
    @Test(arguments: ["bell\u{7}x", "a\u{0}b", "c1\u{85}x", "non" + String(Unicode.Scalar(0xFFFE)!) + "char", String(Unicode.Scalar(0xFDD0)!)])
    func controlCharactersAndNonCharactersAreRefused(text: String) {
        #expect(throws: DragboardError.self) { _ = try BoardLabel.checkedName(text) }
        #expect(throws: DragboardError.self) { _ = try CardDetails.checkedCheckTitle(text) }
        #expect(throws: DragboardError.self) { _ = try CardDetails.checkedDescription(text) }
    }

    @Test func aDescriptionKeepsItsLinesAndTabs() throws {
        #expect(try CardDetails.checkedDescription("one\n\ttwo") == "one\n\ttwo")
        #expect(try BoardLabel.checkedName("Ｃａｔ 🐈‍⬛ e\u{301}") == "Ｃａｔ 🐈‍⬛ e\u{301}")
    }
}

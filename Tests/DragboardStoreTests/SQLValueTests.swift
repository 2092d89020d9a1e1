@testable import DragboardStore
import Foundation
import GRDB
import Testing
@testable import Dragboard

/// The store's own values must read and write exactly what GRDB did before they existed: dates
/// written by older versions are compared with new ones as text.
@Suite struct SQLValueTests {
    @Test(arguments: [0, 1, 59.999, 86_399.9994, 951_782_400.5, 1_709_164_800.123, 1_800_000_000.0009, 1_800_000_000.0004, 1_800_000_000.9996, -1.5, -86_400.0004, 4_102_444_799.999])
    func datesAreStoredAsGRDBStoredThem(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(date.sqlValue == date.databaseValue.sqlValue)
    }

    @Test func datesReadBackToTheMillisecond() throws {
        let date = Date(timeIntervalSince1970: 1_764_115_200.25)
        #expect(Date.fromSQLValue(date.sqlValue) == date)
    }

    @Test func optionalsReadNullAsNilAndRefuseOtherStorage() {
        #expect(String?.fromSQLValue(.null) == .some(nil))
        #expect(String?.fromSQLValue(.integer(1)) == nil)
        #expect(Int.fromSQLValue(.real(2.0)) == 2)
        #expect(Int.fromSQLValue(.real(2.5)) == nil)
        #expect(Data.fromSQLValue(.text("ab")) == Data("ab".utf8))
    }
}

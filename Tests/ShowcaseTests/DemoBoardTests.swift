import Dragboard
import Testing
@testable import Showcase

/// The board a new database starts with is the showcase's own: every list and row it seeds is of
/// a kind the showcase registers, and every container it fills is one of its rows.
@Suite struct DemoBoardTests {
    static let seed = Showcase.kit.seed!

    @Test func everySeededListIsOfARegisteredKind() {
        #expect(Self.seed.lists.map(\.list.id) == ["cat-1", "cat-2", "cat-3", "places", "people", "toy-boxes"])
        for (list, _) in Self.seed.lists {
            #expect(Showcase.kit.listKind(list.kind) != nil, "\(list.id) is of kind \(list.kind), which the showcase does not register")
        }
    }

    /// Places are plain rows (the kit shows a row of an unregistered kind as its title); every other
    /// seeded row is of a kind the showcase registers.
    @Test func everySeededRowIsOfARegisteredKindOrAPlainPlace() {
        let registered = Set(Showcase.kit.itemKinds.map(\.id))
        for (list, items) in Self.seed.lists {
            for item in items where !(list.id == "places" && item.kind == "place") {
                #expect(registered.contains(item.kind), "\(item.title) in \(list.id) is of kind \(item.kind)")
            }
        }
    }

    @Test func theFilledContainersAreBoxesOfTheToyBoxes() throws {
        let boxes = try #require(Self.seed.lists.first { $0.list.id == "toy-boxes" }).items
        for (container, toys) in Self.seed.containers {
            let box = try #require(boxes.first { $0.id == container }, "\(container) is not a seeded box")
            #expect(Showcase.kit.isContainer(box.kind))
            #expect(toys.allSatisfy { $0.kind == ToyItem.id })
        }
        #expect(Self.seed.containers.keys.sorted() == ["box-green", "box-red"])
    }
}

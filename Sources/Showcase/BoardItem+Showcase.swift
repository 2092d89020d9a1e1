import Dragboard

/// What the showcase's rows keep besides a title: a person's age, a link's URL.
struct ShowcasePayload: Codable {
    var age: Int?
    var url: String?
}

extension BoardItem {
    /// A person's age.
    var age: Int? { payload(as: ShowcasePayload.self)?.age }
    /// A link's address.
    var url: String? { payload(as: ShowcasePayload.self)?.url }
}

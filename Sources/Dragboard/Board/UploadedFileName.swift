import DragAndDrop
import Foundation

/// The name a file dropped from another app had. The browser reveals it only with the file, at
/// the drop, so it travels as a representation of its own (visible to this server only) and is
/// loaded like the file itself — never from the name or type the file claims.
package struct UploadedFileName: ItemProviderReading {
    package static let typeIdentifier: TypeIdentifier = "org.dragboard.uploaded-file-name"
    package static var readableTypeIdentifiers: [TypeIdentifier] { [typeIdentifier] }

    package var name: String

    package static func object(withItemProviderData data: Data, typeIdentifier: TypeIdentifier) throws -> UploadedFileName {
        UploadedFileName(name: String(decoding: data, as: UTF8.self))
    }
}

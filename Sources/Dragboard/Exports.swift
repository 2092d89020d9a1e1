// The delegates an app writes for its kinds are the engine's protocols (`ListDropDelegate`,
// `DropZoneDelegate`, `DropProposal`…): importing the kit brings them along.
@_exported import DragAndDrop

enum DragAndDropPlaceholder {}

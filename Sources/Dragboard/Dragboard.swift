import MicroHTTP
import DragAndDrop
enum DragboardPlaceholder {}

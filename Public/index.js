// The board index: undo and redo of this browser's newest change (a deleted board comes back).
import { initIndexUndo } from './undo.js';

initIndexUndo(document);
window.__dragboardReady = true;

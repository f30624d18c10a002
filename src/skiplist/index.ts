/** `redstruct/skiplist` — not built yet. @module */
export {};

/** `redstruct/bloom` — not built yet. @module */
export {};

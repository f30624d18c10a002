/** `redstruct/dict` — not built yet. @module */
export {};

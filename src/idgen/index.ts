/** `redstruct/idgen` — not built yet. @module */
export {};

/** `redstruct/hll` — not built yet. @module */
export {};

package dev.cabinet.table;

/** One access pattern of SPEC §2: the read it answers and the single key condition that answers it. */
public record AccessPattern(int number, String name, Index index, String keyCondition, ItemType... itemTypes) {
}

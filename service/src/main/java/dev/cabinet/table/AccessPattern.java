package dev.cabinet.table;

/**
 * One access pattern of SPEC §2: the read it answers, the endpoint that serves it, and the single key condition that
 * answers it.
 */
public record AccessPattern(int number, String name, String endpoint, Index index, String keyCondition,
        ItemType... itemTypes) {
}

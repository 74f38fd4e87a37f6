package dev.cabinet.devservices.deployment.devui.sample;

/** The sample key plan's access pattern. */
public record AccessPattern(int number, String name, String endpoint, Index index, String keyCondition,
        ItemType... itemTypes) {
}

package dev.cabinet.devservices.deployment.devui.sample;

import java.util.List;

/** The sample key plan's GSI entry. */
public record IndexEntry(Index index, ItemType.Template pk, ItemType.Template sk, String condition,
        List<String> projected) {
}
